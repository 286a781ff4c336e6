package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestClean(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain text\n\tindented":                      "plain text\n\tindented",
		"red \x1b[31mtext\x1b[0m":                     "red text",
		"title \x1b]0;pwned\x07 after":                "title  after",
		"clip \x1b]52;c;aGk=\x07 x":                   "clip  x",
		"progress 10%\rprogress 100%\ndone":           "progress 100%\ndone",
		"crlf\r\nline":                                "crlf\nline",
		"rtl \u202eexe.txt\u202c end":                 "rtl exe.txt end",
		"keep[\rX]\n":                                 "X]ep[\n",
		"abc\r":                                       "abc",
		"bell\a nul\x00 del\x7f c1\u0085 bad\xff end": "bell nul del c1 bad\uFFFD end",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// A carriage return in model text is a line break, as omp shows it: no
// text is overwritten, in a finished message or the streaming tail.
func TestModelTextCarriageReturn(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	got := ansi.Strip(r.markdown("Controls: cr[\r]bs[x]\r\nend"))
	if !strings.Contains(got, "Controls: cr[") || !strings.Contains(got, "]bs[x]") || !strings.Contains(got, "end") {
		t.Fatalf("text lost: %q", got)
	}
	if strings.Contains(got, "]bs[x]ls") {
		t.Fatalf("overwritten: %q", got)
	}
}

// Nothing the model writes reaches the terminal as a control sequence.
func TestRenderedTextHasNoForeignEscapes(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	evil := "hi \x1b]0;owned\x07 \x1b[2J \x1b]52;c;ZXZpbA==\x07"
	for _, out := range []string{r.markdown(evil), r.user(evil, 0), r.thinking(evil, true), r.bashRun(evil, evil, nil, false), r.errorLine(evil), r.notice(evil)} {
		if strings.Contains(out, "]0;") || strings.Contains(out, "]52;") || strings.Contains(out, "[2J") || strings.ContainsRune(out, 0x07) {
			t.Errorf("an escape reached the output: %q", out)
		}
		if !strings.Contains(ansi.Strip(out), "hi") {
			t.Errorf("the text was lost: %q", out)
		}
	}
}
