package tui

import (
	"bytes"
	"io"
	"sync"
	"time"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// frameEvery is the shortest time between two frames: the changes of a
// burst of messages (a streamed answer's deltas, a paste) are drawn
// together.
const frameEvery = 16 * time.Millisecond

// frameMsg asks for a frame.
type frameMsg struct{}

// program runs the model under Bubble Tea and draws it with the screen
// (screen.go) rather than with Bubble Tea's renderer, which is given an
// empty view and keeps only the terminal's modes (raw input, bracketed
// paste, keyboard protocol, the hidden cursor, the window title).
//
// A message that reaches the model asks for a frame, at most one every
// frameEvery; the frame is drawn only when what it shows changed. With
// nothing happening, nothing runs: no timer, no redraw.
type program struct {
	m       *model
	scr     *screen
	pending bool     // a frame is asked for
	view    tea.View // what Bubble Tea draws: nothing (the screen writes the title too)
	// noticeAt is the time of the notice whose expiry is asked for.
	noticeAt time.Time
	// after returns a command that delivers msg after d (tea.Tick; tests
	// give a clock of their own).
	after func(d time.Duration, msg tea.Msg) tea.Cmd
	// updates holds the streamed message's newest update until the next
	// frame (coalesce.go).
	updates updateSlot
}

// newProgram draws m on scr.
func newProgram(m *model, scr *screen) *program {
	return &program{m: m, scr: scr, after: func(d time.Duration, msg tea.Msg) tea.Cmd {
		return tea.Tick(d, func(time.Time) tea.Msg { return msg })
	}}
}

// Init starts the model.
func (p *program) Init() tea.Cmd { return tea.Batch(p.m.Init(), p.schedule()) }

// Update hands msg to the model and asks for a frame.
func (p *program) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		p.pending = false
		var cmd tea.Cmd
		if u, ok := p.updates.take(); ok {
			_, cmd = p.m.Update(eventMsg{u})
		}
		p.draw()
		return p, cmd
	case updateReadyMsg:
		return p, p.schedule()
	case tea.WindowSizeMsg:
		p.scr.resize(msg.Width, msg.Height)
	case tea.ResumeMsg:
		// Back from a suspension: the frame was erased before it, the
		// next one starts on the cursor's row.
		p.scr.shown = nil
	}
	_, cmd := p.m.Update(msg)
	return p, tea.Batch(cmd, p.expireNotice(), p.schedule())
}

// noticeExpiredMsg ends the notice set at at, if it is still the one shown.
type noticeExpiredMsg struct{ at time.Time }

// expireNotice asks, once per notice, for a message when the notice's
// time is up, so that it goes from the screen then (an idle screen is not
// redrawn otherwise).
func (p *program) expireNotice() tea.Cmd {
	if p.m.notice == "" || p.m.noticeAt.Equal(p.noticeAt) {
		return nil
	}
	p.noticeAt = p.m.noticeAt
	return p.after(noticeFor, noticeExpiredMsg{at: p.m.noticeAt})
}

// View is what Bubble Tea draws: nothing but the window title.
func (p *program) View() tea.View { return p.view }

// schedule asks for a frame unless one is asked for already.
func (p *program) schedule() tea.Cmd {
	if p.pending || p.m.quitting {
		return nil
	}
	p.pending = true
	return p.after(frameEvery, frameMsg{})
}

// draw prints what the model printed since the last frame and draws its
// live part.
func (p *program) draw() {
	if p.m.redrawAll {
		p.m.redrawAll = false
		p.scr.reset = p.scr.sized
		if p.m.replacePrinted {
			p.m.replacePrinted = false
			p.scr.forget()
		}
	}
	v := p.m.View()
	p.scr.title = v.WindowTitle
	p.scr.draw(p.m.takePrinted(), v.Content)
}

// suspend erases the frame before the program is suspended (Ctrl+Z), so
// that it is not left behind above the shell.
func (p *program) suspend() {
	p.scr.close(p.m.takePrinted())
}

// finish leaves the terminal after the program ended: what was printed,
// then the unfinished answer (when it ended in the middle of one), and no
// frame.
func (p *program) finish() {
	if u, ok := p.updates.take(); ok {
		p.m.onEvent(u) // the stream's newest text, not drawn yet
	}
	p.m.commitLive()
	p.scr.close(p.m.takePrinted())
}

// filter lets the program erase its frame before Bubble Tea suspends it.
func (p *program) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	if _, ok := msg.(tea.SuspendMsg); ok {
		p.suspend()
	}
	return msg
}

// ttyWriter is the terminal's output, shared by Bubble Tea and the
// screen, one write at a time. For its empty view Bubble Tea writes
// erasures from its idea of the cursor down (on start, resize and exit),
// which would wipe the screen's frame: they are dropped.
type ttyWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Bubble Tea's erasures of its empty view.
var (
	eraseFromStart = []byte("\r\x1b[J")
	eraseFromHere  = []byte("\x1b[J")
)

// Write takes Bubble Tea's output.
func (t *ttyWriter) Write(p []byte) (int, error) {
	n := len(p)
	if bytes.Contains(p, eraseFromHere) {
		p = bytes.ReplaceAll(bytes.ReplaceAll(p, eraseFromStart, nil), eraseFromHere, nil)
	}
	if len(p) == 0 {
		return n, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// draw writes the screen's output.
func (t *ttyWriter) draw(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = io.WriteString(t.w, s)
}

// ttyFile is a ttyWriter over a terminal: Bubble Tea asks the terminal
// behind it for its size and modes, and reads the colours it supports.
type ttyFile struct {
	*ttyWriter
	f interface {
		io.Reader
		Fd() uintptr
	}
}

// Read reads the terminal.
func (t ttyFile) Read(p []byte) (int, error) { return t.f.Read(p) }

// Close leaves the terminal open: it belongs to the caller.
func (t ttyFile) Close() error { return nil }

// Fd is the terminal's file descriptor.
func (t ttyFile) Fd() uintptr { return t.f.Fd() }

// terminalOutput wraps out for Bubble Tea and the screen.
func terminalOutput(out io.Writer) (io.Writer, *ttyWriter) {
	t := &ttyWriter{w: out}
	if f, ok := out.(interface {
		io.Reader
		Fd() uintptr
	}); ok {
		return ttyFile{ttyWriter: t, f: f}, t
	}
	return t, t
}

// steadyCursor stops a text area's cursor from blinking: each blink was a
// message, and a frame drawn again, twice a second while nothing happened.
func steadyCursor(ta *textarea.Model) {
	st := ta.Styles()
	st.Cursor.Blink = false
	ta.SetStyles(st)
}

// newSteadyInput is a one-line text input whose cursor does not blink
// (steadyCursor's reason: the /agents dialogs' fields drew a frame twice a
// second while idle), with prompt and placeholder set and focused.
func newSteadyInput(prompt, placeholder string) textinput.Model {
	in := textinput.New()
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	in.Prompt, in.Placeholder = prompt, placeholder
	in.Focus()
	return in
}

// editorKey is what the editor's drawing depends on.
type editorKey struct {
	value, placeholder, theme string
	line, column, scroll      int
	width, height             int
	focused                   bool
}

// editorDrawing is the editor as last drawn.
type editorDrawing struct {
	key  editorKey
	view string
	ok   bool
}

// editorView draws the editor, again only when what it shows changed:
// drawing the text area was most of a frame's cost (its placeholder is
// laid out a character at a time), and a streamed answer asks for a frame
// every frameEvery.
func (m *model) editorView() string {
	ta := &m.ed.ta
	k := editorKey{value: ta.Value(), placeholder: ta.Placeholder, theme: m.th.name, line: ta.Line(), column: ta.Column(),
		scroll: ta.ScrollYOffset(), width: ta.Width(), height: ta.Height(), focused: ta.Focused()}
	if !m.edDrawn.ok || m.edDrawn.key != k {
		m.edDrawn = editorDrawing{key: k, view: ta.View(), ok: true}
	}
	return m.edDrawn.view
}
