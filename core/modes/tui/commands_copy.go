package tui

import (
	"fmt"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/ai"
)

// codeBlock matches a fenced code block (``` at the start of a line).
var codeBlock = regexp.MustCompile("(?ms)^```[^\n]*\n(.*?)^```")

// cmdCopy copies to the clipboard: the last answer (last, or nothing),
// its last code block (code), all its code blocks (all), or the last
// command the model ran with bash (cmd).
func (m *model) cmdCopy(args string) tea.Cmd {
	sub := strings.ToLower(strings.TrimSpace(args))
	if sub == "cmd" {
		return m.copyLastCommand()
	}
	text := m.s.LastAssistantText()
	if strings.TrimSpace(text) == "" {
		return m.printSection(m.r.notice("No answer to copy yet"))
	}
	switch sub {
	case "", "last":
		return m.copyText(text, "Copied the last answer to the clipboard")
	case "code", "all":
		blocks := codeBlock.FindAllStringSubmatch(text, -1)
		if len(blocks) == 0 {
			return m.printSection(m.r.warning("The last answer has no code block"))
		}
		if sub == "code" {
			return m.copyText(strings.TrimSuffix(blocks[len(blocks)-1][1], "\n"), "Copied the last code block to the clipboard")
		}
		var parts []string
		for _, b := range blocks {
			parts = append(parts, strings.TrimSuffix(b[1], "\n"))
		}
		return m.copyText(strings.Join(parts, "\n\n"), fmt.Sprintf("Copied %d code block(s) to the clipboard", len(blocks)))
	}
	return m.printSection(m.r.errorLine(fmt.Sprintf("Unknown /copy argument %q: use last, code, all or cmd", sub)))
}

// copyLastCommand copies the command of the model's latest bash call.
func (m *model) copyLastCommand() tea.Cmd {
	msgs := m.s.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		a, ok := msgs[i].(*ai.AssistantMessage)
		if !ok {
			continue
		}
		calls := a.ToolCalls()
		for j := len(calls) - 1; j >= 0; j-- {
			if c, ok := calls[j].Arguments["command"].(string); ok && calls[j].Name == "bash" {
				return m.copyText(c, "Copied the last bash command to the clipboard")
			}
		}
	}
	return m.printSection(m.r.warning("No bash command in the conversation yet"))
}

// copyText puts text on the clipboard (OSC 52) and says so.
func (m *model) copyText(text, notice string) tea.Cmd {
	m.setNotice(notice)
	return tea.SetClipboard(text)
}
