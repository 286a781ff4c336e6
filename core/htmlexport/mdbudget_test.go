package htmlexport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// Answers as models write them stay Markdown, however long: prose,
// nested lists, a long table full of inline code, long code blocks
// (diffs included), a quote holding a list and code.
func TestOrdinaryMarkdownIsRendered(t *testing.T) {
	var table strings.Builder
	table.WriteString("| name | type | note |\n| --- | :---: | ---: |\n")
	for i := range 400 {
		fmt.Fprintf(&table, "| `field%d` | `map[string][]*T` | see [docs](https://example.com/%d) and *why* |\n", i, i)
	}
	var code strings.Builder
	code.WriteString("Here is the change:\n\n```go\n")
	for i := range 600 {
		fmt.Fprintf(&code, "\tif err := f(a[%d], b(c)); err != nil { return fmt.Errorf(\"step %d: %%w\", err) } // *x* _y_ <z>\n", i, i)
	}
	code.WriteString("```\n\n```diff\n")
	for i := range 300 {
		fmt.Fprintf(&code, "- old(%d) [x]\n+ new(%d) [y]\n", i, i)
	}
	code.WriteString("```\n\nDone.\n")
	var lists strings.Builder
	for i := range 300 {
		fmt.Fprintf(&lists, "%s- item %d with `code`, **bold** and a [link](u)\n", strings.Repeat("  ", i%6), i)
	}
	for name, text := range map[string]string{
		"prose": strings.Repeat("The function `parse` reads the **header** first, then [the body](https://example.com/spec) (see *RFC 9110*).\n\n", 2000),
		"table": table.String(),
		"code":  code.String(),
		"lists": lists.String(),
		"quote": "> Note:\n> - one `a`\n>   - two *b*\n>\n> ```sh\n> ls -la | grep '[a-z]*'\n> ```\n",
		"deep":  strings.Repeat(">", 16) + " sixteen levels are fine\n",
	} {
		if why := markdownTooCostly(text); why != "" {
			t.Errorf("%s (%d bytes): %s", name, len(text), why)
		}
	}
}

// Text nested too deep, or too dense in delimiters for its length, is
// caught by the estimate (goldmark's time on these grows with the square
// or the cube of their size).
func TestCostlyMarkdownIsCaught(t *testing.T) {
	var indented, quotes strings.Builder
	for i := range 100 {
		fmt.Fprintf(&indented, "%s- level %d\n", strings.Repeat("  ", i), i)
		fmt.Fprintf(&quotes, "%s line %d\n", strings.Repeat(">", i), i)
	}
	deep := "it nests quotes and lists more than 16 levels deep"
	for name, c := range map[string]struct{ text, want string }{
		"quote markers":       {strings.Repeat(">", 17) + " x\n", deep},
		"quote lines":         {quotes.String(), deep},
		"list markers":        {strings.Repeat("- ", 40) + "x\n", deep},
		"indented lists":      {indented.String(), deep},
		"deep in a fence":     {"```\n" + strings.Repeat(" ", 200) + "code is not nested\n```\n", ""},
		"link openers":        {strings.Repeat("[a](", 8000), tooDense},
		"emphasis":            {strings.Repeat("**a *b _c __d ", 4000), tooDense},
		"references":          {strings.Repeat("[a]: /u\n", 8000), tooDense},
		"one long paragraph":  {strings.Repeat("a line with a [link](http://x.y/z) and `code` here\n", 4000), tooDense},
		"fence in a quote":    {"> ```\n" + strings.Repeat("**a *b _c __d\n", 4000), tooDense},  // the quote ends at the next line, and the fence with it
		"unclosed info fence": {"```a`b\n" + strings.Repeat("**a *b _c __d\n", 4000), tooDense}, // a backtick in the info string: not a fence
	} {
		if got := markdownTooCostly(c.text); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
}

// A message too deep or too dense is on the page as plain text with a
// note, not as Markdown; the others are unchanged.
func TestCostlyMessageShownAsPlainText(t *testing.T) {
	m := session.InMemory("/w")
	deep := strings.Repeat(">", 300) + " very deep"
	dense := strings.Repeat("[a](", 3000)
	for _, text := range []string{deep, dense, "an *ordinary* answer"} {
		if _, err := m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text(text)}, Model: "m", StopReason: ai.StopReasonStop}); err != nil {
			t.Fatal(err)
		}
	}
	page, _ := render(t, m, Options{})
	if strings.Count(page, "<blockquote>") != 0 {
		t.Errorf("the deep message was rendered as Markdown (%d blockquotes)", strings.Count(page, "<blockquote>"))
	}
	for _, want := range []string{
		`<div class="md plain">` + strings.Repeat("&gt;", 300) + " very deep</div>",
		`<div class="note">Shown as plain text: it nests quotes and lists more than 16 levels deep.</div>`,
		`<div class="md plain">` + dense + "</div>",
		`<div class="note">Shown as plain text: ` + tooDense + `.</div>`,
		"an <em>ordinary</em> answer",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %.120q", want)
		}
	}
}
