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

// shownCard is a finished tool call as its card was drawn: what Ctrl+O
// draws again in full.
type shownCard struct {
	call    *ai.ToolCall
	content []ai.Content
	details any
	isError bool
}

// noteCard remembers the card printed last, for Ctrl+O.
func (m *model) noteCard(call *ai.ToolCall, content []ai.Content, details any, isError bool) {
	m.keys.lastTool = &shownCard{call: call, content: content, details: details, isError: isError}
}

// noteResult remembers the card of a tool result of a loaded
// conversation.
func (m *model) noteResult(res *ai.ToolResultMessage) {
	call := m.calls[res.ToolCallID]
	if call == nil {
		call = &ai.ToolCall{Name: res.ToolName}
	}
	m.noteCard(call, res.Content, res.Details, res.IsError)
}

// toggleToolOutput is Ctrl+O: tool output is shown in full from now on,
// and the last card, when it was cut, is printed again in full; pressed
// again, cards are cut again. (omp redraws its cards in place; gopi's
// cards are in the terminal's scrollback already, so the full card is
// printed below.)
func (m *model) toggleToolOutput() tea.Cmd {
	m.r.full = !m.r.full
	if !m.r.full {
		m.setNotice("Tool output is cut from now on (ctrl+o shows it in full)")
		return nil
	}
	m.setNotice("Tool output is shown in full from now on (ctrl+o cuts it again)")
	c := m.keys.lastTool
	if c == nil {
		return nil
	}
	cut := *m.r
	cut.full = false
	full := m.r.card(c.call, c.content, c.details, c.isError)
	if full == cut.card(c.call, c.content, c.details, c.isError) {
		return nil
	}
	return m.printSection(full)
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
