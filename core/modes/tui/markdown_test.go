package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The Markdown layout, without colours: wrapping, lists (tight, loose,
// nested, ordered, tasks), quotes, code with a gutter, tables, headings,
// links, and HTML kept as text.
func TestRenderMarkdown(t *testing.T) {
	t.Parallel()
	th := newTheme(true, true)
	for _, c := range []struct{ in, want string }{
		{"Hello **bold** and `code`.", "Hello bold and code."},
		{"# Title\n\ntext", "# Title\n\ntext"},
		{"- a\n- b\n  - c\n", "• a\n• b\n  • c"},
		{"1. one\n2. two\n", "1. one\n2. two"},
		{"- [x] done\n- [ ] todo\n", "• [x] done\n• [ ] todo"},
		{"> quoted\n> more", "▎ quoted\n▎ more"},
		// Single newlines stay line breaks (a log, a file list); a long
		// line still wraps, and a blank line still parts paragraphs.
		{"build ok\ntests ok\nlint: 2 warnings", "build ok\ntests ok\nlint: 2 warnings"},
		{"files:\nmain.go\n  util.go", "files:\nmain.go\nutil.go"},
		{"one\ntwo " + strings.Repeat("long ", 9) + "\n\nnext", "one\ntwo long long long long long long long\nlong long\n\nnext"},
		{"- item one\n  continued", "• item one\n  continued"},
		{"```go\nfunc f() {}\n```", "│ func f() {}"},
		{"| a | bb |\n|---|---|\n| 1 | 2 |", "a │ bb\n─────────\n1 │ 2"},
		{"see [docs](https://x.dev/d) or https://x.dev", "see docs (https://x.dev/d) or\nhttps://x.dev"},
		{"a <b>tag</b> stays", "a <b>tag</b> stays"},
		{"---", strings.Repeat("─", 40)},
		{"word " + strings.Repeat("long ", 12), "word long long long long long long long\nlong long long long long"},
	} {
		got := ansi.Strip(renderMarkdown(th, c.in, 40))
		if got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.in, got, c.want)
		}
	}
}

// Code is coloured by language: keywords, strings, comments; a block
// comment carries over lines.
func TestHighlight(t *testing.T) {
	t.Parallel()
	th := newTheme(true, false)
	lines := highlight(th, "go", "func f() string { // hi\n\treturn \"x\" /* a\nb */ }")
	if len(lines) != 3 {
		t.Fatal(lines)
	}
	if ansi.Strip(strings.Join(lines, "\n")) != "func f() string { // hi\n\treturn \"x\" /* a\nb */ }" {
		t.Errorf("the text changed: %q", lines)
	}
	if !strings.Contains(lines[0], th.keyword.Render("func")) || !strings.Contains(lines[1], th.str.Render(`"x"`)) ||
		!strings.Contains(lines[2], th.dim.Render("b */")) {
		t.Errorf("colours: %q", lines)
	}
	if got := highlight(newTheme(true, true), "go", "func f()"); got[0] != "func f()" {
		t.Errorf("plain: %q", got)
	}
}

// A table whose quote or list prefix is wider than the screen is drawn
// without its rule rather than panicking (a negative repeat count).
func TestTableUnderAPrefixWiderThanTheScreen(t *testing.T) {
	t.Parallel()
	for _, width := range []int{0, 5, 40} {
		q := strings.Repeat("> ", 21)
		out := renderMarkdown(newTheme(true, true), q+"| a |\n"+q+"| - |\n"+q+"| b |\n", width)
		if !strings.Contains(ansi.Strip(out), "b") {
			t.Errorf("width %d: the body row is missing:\n%s", width, out)
		}
	}
}
