package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

const askArgs = `{"questions":[{"id":"db","question":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}],"recommended":0}]}`

// The ask tool's question opens as a picker; the choice reaches the model.
func TestAskDialogAnswered(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("ask", askArgs)}}, answer("SQLite it is"))
	r.typeAndSend("set up storage")
	r.until("the question", func() bool { return r.m.picker != nil && r.m.dialog != nil })
	if v := r.view(); !strings.Contains(v, "Which database?") || !strings.Contains(v, "SQLite") || !strings.Contains(v, "Other") {
		t.Fatalf("dialog:\n%s", v)
	}
	r.key("down")
	r.key("enter")
	r.idle()
	if body := string(r.llm.Requests()[1].Body); !strings.Contains(body, "User selected: SQLite") {
		t.Errorf("the answer did not reach the model: %s", body)
	}
	if r.m.dialog != nil || r.m.picker != nil {
		t.Error("the dialog stayed open")
	}
}

// Esc dismisses the question: the tool reports the user's cancel and
// the run ends; no answer is made up.
func TestAskDialogDismissed(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("ask", askArgs)}}, answer("never asked for"))
	r.typeAndSend("set up storage")
	r.until("the question", func() bool { return r.m.dialog != nil })
	r.key("esc")
	r.idle()
	if !r.printedHas("Ask tool was cancelled by the user") {
		t.Errorf("transcript:\n%s", r.transcript())
	}
	if n := len(r.llm.Requests()); n != 1 {
		t.Errorf("%d requests: the run went on after the cancel", n)
	}
}

// Input and editor dialogs, one at a time; a timeout closes the dialog.
func TestTextDialogs(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ui := &dialogUI{send: func(msg tea.Msg) { r.msgs <- msg }}
	type result struct {
		text string
		err  error
	}
	in, ed := make(chan result, 1), make(chan result, 1)
	go func() {
		s, err := ui.Input(context.Background(), "Branch name?", "feature/…", 0)
		in <- result{s, err}
	}()
	go func() {
		s, err := ui.Editor(context.Background(), "Commit message", "draft", 0)
		ed <- result{s, err}
	}()
	r.until("a dialog", func() bool { return r.m.dialog != nil })
	first := r.m.dialog.msg.kind
	r.key("x1")
	if first == dialogInput {
		r.key("enter")
	} else {
		r.update(keyMsg("ctrl+s"))
	}
	r.until("the second dialog", func() bool { return r.m.dialog != nil && r.m.dialog.msg.kind != first })
	r.key("y2")
	if first == dialogInput {
		r.update(keyMsg("ctrl+s"))
	} else {
		r.key("enter")
	}
	a, b := <-in, <-ed
	if a.err != nil || a.text != "x1" && a.text != "y2" || b.err != nil || !strings.HasPrefix(b.text, "draft") {
		t.Fatalf("input %+v editor %+v", a, b)
	}

	done := make(chan error, 1)
	go func() {
		_, err := ui.Confirm(context.Background(), "Proceed?", "really", 50*time.Millisecond)
		done <- err
	}()
	if err := <-done; !errors.Is(err, tool.ErrDialogTimedOut) {
		t.Fatalf("timeout: %v", err)
	}
	r.until("the dialog to close", func() bool { return r.m.dialog == nil && r.m.picker == nil })
}

// Notify, status, widgets, title and editor text from the UI.
func TestUICalls(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ui := &dialogUI{send: func(msg tea.Msg) { r.msgs <- msg }}
	ui.Notify("heads up", "info")
	ui.SetStatus("lint", "lint: ok")
	ui.SetWidget("plan", []string{"1. read", "2. write"})
	ui.SetTitle("custom title")
	ui.SetEditorText("prefilled")
	r.settle()
	v := r.view()
	for _, want := range []string{"heads up", "lint: ok", "1. read", "2. write"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if r.m.title() != "custom title" || r.m.ed.text() != "prefilled" {
		t.Errorf("title %q editor %q", r.m.title(), r.m.ed.text())
	}
}

// Extensions may list and switch the themes (dark, light) while colours
// are on; with colours off there are none to switch.
func TestUIThemes(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.m.opts.NoColor = false
	r.m.ui = &dialogUI{send: func(msg tea.Msg) { r.msgs <- msg }}
	r.m.setTheme(true)
	ui := r.m.ui
	if ui.Theme() != "dark" || strings.Join(ui.Themes(), ",") != "dark,light" {
		t.Fatalf("theme %q of %v", ui.Theme(), ui.Themes())
	}
	if err := ui.SetTheme("solarized"); err == nil {
		t.Error("an unknown theme was accepted")
	}
	if err := ui.SetTheme("light"); err != nil {
		t.Fatal(err)
	}
	r.settle()
	if r.m.th.name != "light" || ui.Theme() != "light" {
		t.Errorf("after SetTheme(light): drawing with %q, reported %q", r.m.th.name, ui.Theme())
	}
	off := &dialogUI{send: func(tea.Msg) {}}
	if len(off.Themes()) != 0 || off.SetTheme("dark") == nil {
		t.Errorf("colours off: themes %v offered", off.Themes())
	}
}
