package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/internal/golden"
)

// Typing "/" opens the command list with descriptions; it narrows as the
// name is typed, Up and Down move and wrap, Esc closes it and leaves the
// text, Tab takes the entry and Enter runs it.
func TestSlashPopupFollowsTyping(t *testing.T) {
	r := newRig(t)
	r.key("/")
	v := r.view()
	if !strings.Contains(v, "❯ model") || !strings.Contains(v, "pick the model") || !strings.Contains(v, "(1/") {
		t.Fatalf("no command list after /:\n%s", v)
	}
	r.key("thi")
	if v := r.view(); !strings.Contains(v, "❯ thinking") || strings.Contains(v, "  model ") {
		t.Fatalf("the list does not narrow to /thi:\n%s", v)
	}
	r.key("esc")
	if strings.Contains(r.view(), "❯ thinking") || r.m.ed.ta.Value() != "/thi" {
		t.Fatalf("esc: %q\n%s", r.m.ed.ta.Value(), r.view())
	}
	r.key("n") // typing opens it again
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != "/thinking " {
		t.Fatalf("tab took %q", got)
	}
	r.m.ed.clear()
	r.key("/thinking h")
	if v := r.view(); !strings.Contains(v, "❯ high") || strings.Contains(v, "medium") {
		t.Fatalf("no levels after /thinking h:\n%s", v)
	}
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != "/thinking high" {
		t.Fatalf("tab took %q", got)
	}
	r.m.ed.clear()
	r.key("/ho")
	if !strings.Contains(r.view(), "❯ hotkeys") {
		t.Fatalf("/ho:\n%s", r.view())
	}
	r.key("down") // down and up wrap around the list
	r.key("up")
	r.key("up")
	r.key("down")
	r.key("enter")
	r.until("/hotkeys to run", func() bool { return r.printedHas("Shift+Tab") })
	if r.m.pop != nil {
		t.Fatal("the popup stays open after the command ran")
	}
}

// "@" lists files as the query is typed (fuzzy, best first); Tab takes
// one. A plain path completes with Tab: one entry at once, several in
// the list.
func TestFileAndPathCompletion(t *testing.T) {
	r := newRig(t)
	write(t, filepath.Join(r.project, "src", "greet.go"), "package src\n")
	write(t, filepath.Join(r.project, "src", "grow.go"), "package src\n")
	write(t, filepath.Join(r.project, "notes.md"), "notes\n")
	r.key("look at @grt")
	r.until("the file list", func() bool { return strings.Contains(r.view(), "❯ src/greet.go") })
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != "look at @src/greet.go " {
		t.Fatalf("@ completion gave %q", got)
	}
	r.m.ed.clear()
	r.key("read s")
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != "read src/" {
		t.Fatalf("path completion gave %q", got)
	}
	v := r.view() // a directory taken: its entries are listed
	if !strings.Contains(v, "❯ greet.go") || !strings.Contains(v, "  grow.go") {
		t.Fatalf("no entries for src/:\n%s", v)
	}
	r.key("esc")
	r.key("tab")
	v = r.view()
	if !strings.Contains(v, "❯ greet.go") || !strings.Contains(v, "  grow.go") {
		t.Fatalf("no entries for src/:\n%s", v)
	}
	r.key("gro")
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != "read src/grow.go" {
		t.Fatalf("path completion gave %q", got)
	}
}

// A path with a blank completes in double quotes, for the shell of a "!"
// command as for a message (omp's completion): a directory's quote stays
// open so completion goes on inside it.
func TestPathCompletionQuotesBlanks(t *testing.T) {
	r := newRig(t)
	write(t, filepath.Join(r.project, "my file.txt"), "x\n")
	write(t, filepath.Join(r.project, "some dir", "inner.txt"), "x\n")
	r.key("!cat my")
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != `!cat "my file.txt"` {
		t.Fatalf("path completion gave %q", got)
	}
	r.m.ed.clear()
	r.key("!ls so")
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != `!ls "some dir/` {
		t.Fatalf("directory completion gave %q", got)
	}
	r.key("esc") // closes the list of the directory's entries
	r.m.ed.clear()
	r.key(`!cat "some dir/in`)
	r.key("tab")
	if got := r.m.ed.ta.Value(); got != `!cat "some dir/inner.txt"` {
		t.Fatalf("completion inside a quote gave %q", got)
	}
}

// The popup at 80 columns and at a narrow width, as goldens.
func TestPopupGolden(t *testing.T) {
	r := newRig(t)
	for _, w := range []int{80, 36} {
		r.m.width, r.m.height = w, 24
		r.m.ed.setWidth(w)
		r.m.ed.clear()
		r.key("/")
		r.key("c")
		r.key("down")
		golden.Check(t, filepath.Join("testdata", "popup", "slash-"+itoa(w)+".txt"), ansi.Strip(r.m.popupView())+"\n")
	}
}

// In a low window the list keeps to a third of its height.
func TestPopupFitsLowWindow(t *testing.T) {
	r := newRig(t)
	r.m.height = 10
	r.key("/")
	if rows := strings.Count(r.m.popupView(), "\n") + 1; rows != 4 { // 3 entries and (1/n)
		t.Fatalf("%d rows at height 10:\n%s", rows, r.m.popupView())
	}
}
