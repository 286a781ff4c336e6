package tui

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/gopi-agent/gopi/core/agent"
)

// The screen writes nothing before it knows the size, nothing when the
// frame is unchanged, only the changed rows otherwise; printed text goes
// above the frame, a frame taller than the screen keeps its last rows,
// and a resize writes the printed text again after clearing. It never
// erases to the end of the screen (tmux would move the screen into the
// scrollback).
func TestScreenWritesOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	var writes []string
	s := newScreen(func(out string) { writes = append(writes, out) })
	s.draw("", "alpha\nbeta")
	if len(writes) != 0 {
		t.Fatalf("drew before knowing the size: %q", writes)
	}
	s.resize(20, 5)
	step := func(what, text, frame string, has, hasNot []string) {
		t.Helper()
		n := len(writes)
		s.draw(text, frame)
		if has == nil {
			if len(writes) != n {
				t.Fatalf("%s: wrote %q", what, writes[n:])
			}
			return
		}
		if len(writes) != n+1 {
			t.Fatalf("%s: %d writes", what, len(writes)-n)
		}
		w := writes[n]
		for _, h := range has {
			if !strings.Contains(w, h) {
				t.Errorf("%s: %q lacks %q", what, w, h)
			}
		}
		for _, h := range append(hasNot, "\x1b[J") {
			if strings.Contains(w, h) {
				t.Errorf("%s: %q has %q", what, w, h)
			}
		}
	}
	step("first frame", "", "alpha\nbeta", []string{"alpha", "beta"}, nil)
	step("same frame", "", "alpha\nbeta", nil, nil)
	step("one row changed", "", "alpha\ngamma", []string{"gamma"}, []string{"alpha"})
	step("printed", "hello", "alpha\ngamma", []string{"hello\x1b[m\r\n", "alpha", "gamma"}, nil)
	step("taller than the screen", "", "r1\nr2\nr3\nr4\nr5\nr6\nr7", []string{"r3", "r7"}, []string{"r1", "r2"})
	step("wider than the screen", "", strings.Repeat("x", 30), []string{strings.Repeat("x", 20) + "\x1b[m"}, []string{strings.Repeat("x", 21)})
	s.resize(30, 5)
	step("resized", "", "alpha", []string{"\x1b[2J\x1b[3J\x1b[H", "hello", "alpha"}, nil)
	if s.frames != len(writes) {
		t.Errorf("frames %d, writes %d", s.frames, len(writes))
	}
}

// Idle costs nothing: once the frame is drawn, messages that change
// nothing draw nothing, no timer is left running, and the editor's cursor
// does not blink (each blink was a timer and a frame, twice a second).
func TestIdleDrawsNothing(t *testing.T) {
	r := newRig(t)
	p, writes, timers, fire := fakeClockProgram(r)
	p.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	p.Update(keyMsg("h"))
	fire()
	if len(*writes) != 1 {
		t.Fatalf("%d frames for a resize and a key, want 1 (one frame per burst)", len(*writes))
	}
	p.Update(tickMsg{})
	p.Update(statusMsg{st: r.m.status, seq: r.m.statusSeen + 1})
	fire()
	if len(*writes) != 1 || len(*timers) != 0 {
		t.Fatalf("idle: %d frames more, %d timers", len(*writes)-1, len(*timers))
	}
	if cmd := r.m.ed.ta.Focus(); cmd != nil {
		t.Fatal("the editor's cursor blinks: a timer and a frame twice a second")
	}
	p.Update(keyMsg("i"))
	fire()
	if len(*writes) != 2 || !strings.Contains((*writes)[1], "hi") {
		t.Fatalf("a key after idling: %q", (*writes)[1:])
	}
	// A redraw of everything (Ctrl+L) clears and writes the frame again.
	r.m.redrawAll = true
	p.Update(statusMsg{st: r.m.status, seq: r.m.statusSeen + 1})
	fire()
	if len(*writes) != 3 || !strings.Contains((*writes)[2], clearAll) || !strings.Contains((*writes)[2], "hi") {
		t.Fatalf("redrawAll: %q", (*writes)[2:])
	}
}

// The /agents dialogs' text fields do not blink either: focusing one and
// typing into it start no timer (a blink was a frame twice a second while
// the dialog sat idle).
func TestIdleAgentsDialogsDrawNothing(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.typeAndSend("/agents")
	r.until("the centre", func() bool { return strings.Contains(r.view(), "explore [Bundled]") })
	d, ok := r.m.dash.(*agentDash)
	if !ok {
		t.Fatalf("/agents opened %T", r.m.dash)
	}
	steady := func(what string, in *textinput.Model) {
		t.Helper()
		if cmd := in.Focus(); cmd != nil {
			t.Errorf("%s: the cursor blinks (focus starts a timer)", what)
		}
		if _, cmd := in.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}); cmd != nil {
			t.Errorf("%s: typing starts a timer", what)
		}
	}
	r.key("enter")
	if d.editing == "" {
		t.Fatalf("Enter does not edit the override:\n%s", r.view())
	}
	steady("model override", &d.input)
	r.key("esc")
	r.key("n")
	if d.create == nil {
		t.Fatalf("N does not open the description:\n%s", r.view())
	}
	steady("new agent", &d.create.input)
}

// A redraw that replaces the printed text (Ctrl+O's) clears the terminal
// and writes the new text only; a later resize writes it again, never the
// text it replaced.
func TestRedrawReplacesPrinted(t *testing.T) {
	r := newRig(t)
	var writes []string
	p := newProgram(r.m, newScreen(func(out string) { writes = append(writes, out) }))
	p.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	p.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.m.print("old card")
	p.draw()
	r.m.redrawAll, r.m.replacePrinted = true, true
	r.m.print("new card")
	p.draw()
	last := writes[len(writes)-1]
	if !strings.Contains(last, clearAll) || !strings.Contains(last, "new card") || strings.Contains(last, "old card") {
		t.Fatalf("the redraw wrote %q", last)
	}
	p.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	p.draw()
	last = writes[len(writes)-1]
	if !strings.Contains(last, "new card") || strings.Contains(last, "old card") {
		t.Fatalf("the resize after the redraw wrote %q", last)
	}
}

// A notice goes from an idle screen when its time is up (nothing else
// redraws an idle screen); a retry's notice stays until the retry ends
// and goes as soon as it worked; a long notice is wrapped, not cut.
func TestNoticesGoWhenDone(t *testing.T) {
	r := newRig(t)
	p, writes, _, fire := fakeClockProgram(r)
	p.Update(tea.WindowSizeMsg{Width: 40, Height: 30})
	p.Update(noticeMsg{"Copied: a rather long text that does not fit on one row"})
	if strings.Contains(r.view(), "…") || !strings.Contains(r.view(), "fit on one row") {
		t.Fatalf("the notice is not whole:\n%s", r.view())
	}
	fire()
	if strings.Contains(r.view(), "Copied:") || strings.Contains((*writes)[len(*writes)-1], "Copied:") {
		t.Fatalf("the notice outlived its time:\n%s", r.view())
	}

	p.Update(eventMsg{agent.AutoRetryStart{Attempt: 1, MaxAttempts: 3, DelayMs: 2000, ErrorMessage: "overloaded"}})
	fire()
	if !strings.Contains(r.view(), "Retrying in 2s") {
		t.Fatalf("a retry's notice went before the retry ended:\n%s", r.view())
	}
	p.Update(eventMsg{agent.AutoRetryEnd{Attempt: 1, Success: true}})
	fire()
	if strings.Contains(r.view(), "Retrying") {
		t.Fatalf("the retry worked but its notice stays:\n%s", r.view())
	}
}

// The window title is written by the screen, with the frame, once per
// change (even when the frame itself is unchanged): Bubble Tea's renderer
// draws nothing, so its ticker runs at its lowest rate (teaFPS) and an
// idle gopi does not wake ten times a second for it.
func TestScreenWritesWindowTitle(t *testing.T) {
	var writes []string
	s := newScreen(func(out string) { writes = append(writes, out) })
	s.resize(40, 10)
	s.title = "gopi · first"
	s.draw("", "frame")
	s.draw("", "frame")
	s.title = "gopi · second"
	s.draw("", "frame")
	if len(writes) != 2 || !strings.Contains(writes[0], "\x1b]2;gopi · first\x07") || writes[1] != "\x1b]2;gopi · second\x07" {
		t.Fatalf("writes %q", writes)
	}
	if teaFPS > 1 {
		t.Fatalf("Bubble Tea's renderer ticks %d times a second for nothing", teaFPS)
	}
}

// A frame row is cut to the width as the terminal counts it, code point by
// code point: a joined emoji (one grapheme of width 2, 6 columns in tmux)
// must not make the terminal wrap a row the screen counts as one (it left
// an extra blank line in the scrollback at 20 and 24 columns).
func TestScreenFitsJoinedEmoji(t *testing.T) {
	s := newScreen(func(string) {})
	s.resize(24, 10)
	row := "Emoji: 🎉🚀 👩‍👩‍👧 ✅ flags"
	if ansi.StringWidth(row) > 23 {
		t.Fatalf("the test row is %d wide", ansi.StringWidth(row))
	}
	for _, r := range s.fit(row + "\nnext") {
		if w := ansi.StringWidthWc(r); w > 24 {
			t.Fatalf("row %q takes %d columns on a 24-column terminal", r, w)
		}
	}
}

// A tab counts no columns but moves the terminal to its next tab stop: a
// row with tabs is written with the spaces the terminal would move over,
// and cut to the width as they count. "Tabs:\tcol1\tcol2\tcol3" is 17
// columns by its characters and 28 on the terminal; at 20 columns the
// terminal wrapped it and the next print left a blank row in the
// scrollback (the QNL finding of issue 39).
func TestScreenExpandsTabs(t *testing.T) {
	s := newScreen(func(string) {})
	s.resize(20, 10)
	rows := s.fit("Tabs:\tcol1\tcol2\tcol3\n\x1b[1mab\x1b[m\tc\n\tx")
	want := []string{"Tabs:   col1    col2", "\x1b[1mab\x1b[m      c", "        x"}
	for i, r := range rows {
		if strings.Contains(r, "\t") || ansi.StringWidthWc(r) > 20 {
			t.Errorf("row %d is %q (%d columns): the terminal would not keep it on one row", i, r, ansi.StringWidthWc(r))
		}
		if r != want[i] {
			t.Errorf("row %d is %q, want %q", i, r, want[i])
		}
	}
}

// fakeClockProgram draws r's model on a screen whose writes it records,
// with timers that only fire when fire is called.
func fakeClockProgram(r *rig) (p *program, writes *[]string, timers *[]tea.Msg, fire func()) {
	writes, timers = new([]string), new([]tea.Msg)
	p = newProgram(r.m, newScreen(func(out string) { *writes = append(*writes, out) }))
	p.after = func(_ time.Duration, msg tea.Msg) tea.Cmd {
		*timers = append(*timers, msg)
		return nil
	}
	fire = func() {
		for len(*timers) > 0 {
			msg := (*timers)[0]
			*timers = (*timers)[1:]
			p.Update(msg)
		}
	}
	return p, writes, timers, fire
}
