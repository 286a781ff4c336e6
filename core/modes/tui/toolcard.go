package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// expandHint ends the line that says a card was cut, as omp's cards do.
const expandHint = "(ctrl+o to expand)"

// toggleToolOutput is Ctrl+O, as omp's: every tool card, those already
// printed too, is shown in full, or cut again on the next press. The
// cards printed are in the terminal's scrollback, so the transcript is
// drawn again from the session (redrawTranscript); while the agent works
// the redraw waits for the run to end (a streamed answer is printed as it
// comes and is not in the session yet), and new cards follow the choice
// at once.
func (m *model) toggleToolOutput() tea.Cmd {
	m.r.full = !m.r.full
	if m.r.full {
		m.setNotice("Tool output is shown in full (ctrl+o cuts it again)")
	} else {
		m.setNotice("Tool output is cut (ctrl+o shows it in full)")
	}
	if m.running || m.prompting > 0 {
		m.keys.redrawCards = true
		return nil
	}
	return m.redrawTranscript()
}

// redrawTranscript clears the screen and the scrollback and prints the
// conversation again from the session, as the start does (the welcome
// block, then the messages): the next frame replaces the text printed so
// far with it. Text printed outside the session (notices, errors) is not
// kept.
func (m *model) redrawTranscript() tea.Cmd {
	m.keys.redrawCards = false
	m.outbox = nil // not drawn yet: it comes back from the session
	m.redrawAll, m.replacePrinted = true, true
	m.printed, m.gap, m.lastCard = false, false, false
	var cmds []tea.Cmd
	if m.opts.Welcome {
		cmds = append(cmds, m.printSection(m.welcome(m.width)))
	}
	// Every message: the redraw replaces a scrollback that held them all.
	return tea.Batch(append(cmds, m.printMessages("", len(m.s.Messages())))...)
}

// cardTitle names a tool call on its card: the whole command of a shell
// call (omp shows it whole), else session.DescribeToolCall's line.
func cardTitle(call *ai.ToolCall) string {
	command, _ := call.Arguments["command"].(string)
	switch {
	case call.Name == "bash" && command != "":
		return "[bash: " + strings.TrimSpace(command) + "]"
	case call.Name == "ssh" && command != "":
		host, _ := call.Arguments["host"].(string)
		return "[ssh: " + host + " $ " + strings.TrimSpace(command) + "]"
	}
	return session.DescribeToolCall(call)
}

// cardHead draws a card's first lines: the icon, then the call's title
// wrapped to the width, its further lines two columns in; at most
// maxLines of them when maxLines > 0 (a running card's command must not
// fill the screen), the rest noted.
func (r *renderer) cardHead(icon string, call *ai.ToolCall, maxLines int) string {
	title := strings.ReplaceAll(clean(cardTitle(call)), "\t", "    ")
	var lines []string
	for _, l := range strings.Split(title, "\n") {
		lines = append(lines, strings.Split(ansi.Wrap(l, max(10, r.width-3), ""), "\n")...)
	}
	if maxLines > 0 && len(lines) > maxLines {
		lines = append(lines[:maxLines], fmt.Sprintf("… %d more lines", len(lines)-maxLines))
	}
	for i, l := range lines {
		lines[i] = r.th.accent.Render(l)
	}
	return icon + " " + strings.Join(lines, "\n  ")
}

// headLines keeps the first n lines of a card's text, or all of them
// when tool output is shown in full.
func (r *renderer) headLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if r.full || len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… %d more lines %s", len(lines)-n, expandHint)
}

// tailLines keeps the last n lines of a card's text, or all of them when
// tool output is shown in full.
func (r *renderer) tailLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if r.full || len(lines) <= n {
		return s
	}
	return fmt.Sprintf("… %d earlier lines %s\n", len(lines)-n, expandHint) + strings.Join(lines[len(lines)-n:], "\n")
}

// lineLimit is n, or no limit when tool output is shown in full.
func (r *renderer) lineLimit(n int) int {
	if r.full {
		return int(^uint(0) >> 1)
	}
	return n
}
