package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// editInEditor is Ctrl+G: the message being typed (pasted blocks put
// back) opens in $VISUAL or $EDITOR, and what the editor leaves in the
// file replaces it, less one final newline (editors add one). An editor
// that fails leaves the message as it was.
func (m *model) editInEditor() tea.Cmd {
	return m.editExternally(m.ed.text(), ".gopi.md", func(text string) tea.Cmd {
		m.ed.set(strings.TrimSuffix(text, "\n"))
		return nil
	})
}

// suspend is Ctrl+Z: the terminal is given back as it was and gopi
// stops (SIGTSTP to its process group, as a shell job); `fg` resumes it
// and the screen is drawn again. The agent's running work waits with it.
func (m *model) suspend() tea.Cmd { return tea.Suspend }

// escTwice is a second Esc within doublePress on an empty editor with
// nothing running: what the doubleEscapeAction setting says, as omp —
// the session tree (tree, the default), the branch picker (branch) or
// nothing (none).
func (m *model) escTwice() tea.Cmd {
	switch m.s.Config().Settings.String("doubleEscapeAction") {
	case "branch":
		return m.cmdBranch("")
	case "none":
		return nil
	}
	return m.cmdTree("")
}

// queuedTexts are the texts of the messages waiting for the running
// agent: steering first, then follow-ups.
func (m *model) queuedTexts() (steer, follow []string) {
	s, f := m.s.Agent().Queued()
	texts := func(msgs []ai.Message) []string {
		var out []string
		for _, q := range msgs {
			if u, ok := q.(*ai.UserMessage); ok {
				out = append(out, userText(u.Content))
			}
		}
		return out
	}
	return texts(s), texts(f)
}

// pendingView lists the messages waiting for the running agent above the
// editor, one line each ("Steer: …", "Follow-up: …"), and how to take
// them back; "" when none waits.
func (m *model) pendingView() string {
	steer, follow := m.queuedTexts()
	if len(steer)+len(follow) == 0 {
		return ""
	}
	var lines []string
	add := func(label string, texts []string) {
		for _, t := range texts {
			line := label + ": " + strings.Join(strings.Fields(clean(t)), " ")
			lines = append(lines, m.th.dim.Render(ansi.Truncate(line, max(10, m.width-1), "…")))
		}
	}
	add("Steer", steer)
	add("Follow-up", follow)
	lines = append(lines, m.th.dim.Render("└ alt+up to edit"))
	return strings.Join(lines, "\n")
}

// dequeue is Alt+Up: the messages waiting for the running agent come
// back into the editor (before what is typed there), and are not sent.
func (m *model) dequeue() tea.Cmd {
	steer, follow := m.s.Agent().ClearQueues()
	var texts []string
	for _, q := range append(steer, follow...) {
		if u, ok := q.(*ai.UserMessage); ok {
			texts = append(texts, userText(u.Content))
		}
	}
	if len(texts) == 0 {
		m.setNotice("No queued message to take back")
		return nil
	}
	if typed := m.ed.text(); strings.TrimSpace(typed) != "" {
		texts = append(texts, typed)
	}
	m.ed.set(strings.Join(texts, "\n\n"))
	n := len(steer) + len(follow)
	if n == 1 {
		m.setNotice("The queued message is back in the editor")
	} else {
		m.setNotice(fmt.Sprintf("The %d queued messages are back in the editor", n))
	}
	return m.refreshStatus()
}
