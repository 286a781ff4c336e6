package tui

import (
	"context"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/tool"
)

// The bash tool's PTY runs (pty:true) open a console above the editor:
// the command's output as the last lines of a screen, and while it is
// open the keys go to the command; Esc closes it, which ends the command.

const (
	consoleRows = 12 // lines of output the console shows
	consoleKeep = 64 << 10
)

var _ tool.TerminalUI = (*dialogUI)(nil)

// console is one open terminal.
type console struct {
	title string
	input chan []byte
	once  sync.Once
	send  func(tea.Msg)

	mu   sync.Mutex
	cols int    // columns the command is told it has
	out  []byte // the output's tail, at most consoleKeep bytes
}

// OpenTerminal opens the console for one command.
func (u *dialogUI) OpenTerminal(ctx context.Context, title string) (tool.Terminal, error) {
	c := &console{title: title, cols: 100, input: make(chan []byte, 64), send: u.send}
	u.send(consoleMsg{c: c, open: true})
	go func() {
		<-ctx.Done()
		c.dismiss()
	}()
	return c, nil
}

// consoleMsg opens or closes the console, or says it has new output.
type consoleMsg struct {
	c      *console
	open   bool
	closed bool
}

// Write takes the command's output.
func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.out = append(c.out, p...)
	if len(c.out) > consoleKeep {
		c.out = append(c.out[:0], c.out[len(c.out)-consoleKeep/2:]...)
	}
	c.mu.Unlock()
	c.send(consoleMsg{c: c})
	return len(p), nil
}

// Input delivers the keys typed into the console.
func (c *console) Input() <-chan []byte { return c.input }

// Size is the console's size.
func (c *console) Size() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cols, consoleRows
}

// Close hides the console once the command has ended.
func (c *console) Close() error {
	c.dismiss()
	c.send(consoleMsg{c: c, closed: true})
	return nil
}

// dismiss ends the input, which ends the command.
func (c *console) dismiss() { c.once.Do(func() { close(c.input) }) }

// typeKeys sends keys to the command; keys typed faster than it reads are
// dropped rather than blocking the UI.
func (c *console) typeKeys(b []byte) {
	defer func() { _ = recover() }() // the input may have been closed meanwhile
	select {
	case c.input <- b:
	default:
	}
}

// screen is the console's last lines, control sequences removed.
func (c *console) screen(width int) []string {
	c.mu.Lock()
	text := string(c.out)
	c.mu.Unlock()
	lines := strings.Split(clean(text), "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, max(10, width-3), "…")
	}
	if len(lines) > consoleRows {
		lines = lines[len(lines)-consoleRows:]
	}
	return lines
}

// consoleKeys maps keys to the bytes a terminal sends for them.
var consoleKeys = map[string]string{
	"enter": "\r", "tab": "\t", "backspace": "\x7f", "ctrl+c": "\x03", "ctrl+d": "\x04", "ctrl+z": "\x1a",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D", "space": " ",
}

// consoleKey sends a key to the open console; Esc closes it.
func (m *model) consoleKey(k tea.KeyPressMsg) tea.Cmd {
	c := m.console
	if k.String() == "esc" {
		c.dismiss()
		m.setNotice("Console closed: the command was ended")
		return nil
	}
	if s, ok := consoleKeys[k.String()]; ok {
		c.typeKeys([]byte(s))
	} else if k.Text != "" {
		c.typeKeys([]byte(k.Text))
	}
	return nil
}

// onConsole opens, refreshes or closes the console.
func (m *model) onConsole(msg consoleMsg) tea.Cmd {
	switch {
	case msg.open:
		msg.c.mu.Lock()
		msg.c.cols = max(20, m.width-3)
		msg.c.mu.Unlock()
		m.console = msg.c
	case msg.closed && m.console == msg.c:
		m.console = nil
	}
	return nil
}

// consoleView draws the open console.
func (m *model) consoleView() string {
	c := m.console
	var b strings.Builder
	b.WriteString(m.th.dim.Render(strings.Repeat("─", max(10, min(m.width-1, 200)))) + "\n")
	b.WriteString(m.th.title.Render(c.title) + m.th.dim.Render(" · your keys go to the command · esc ends it") + "\n")
	for _, l := range c.screen(m.width) {
		b.WriteString(m.th.dim.Render("│ ") + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
