package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/prompt"
)

// hotkeys lists the key bindings for /hotkeys and the README.
var hotkeys = [][2]string{
	{"Enter", "send; while the agent works, steer it (delivered before its next step)"},
	{"Alt+Enter", "while the agent works: queue a follow-up (sent when it finishes); otherwise a new line"},
	{"Ctrl+Enter", "queue a follow-up while the agent works (terminals that report it)"},
	{"Alt+Up", "take the queued steering and follow-up messages back into the editor"},
	{"Shift+Enter, Ctrl+J", "new line"},
	{"Up / Down", "previous / next message from the history (on the first / last line)"},
	{"Ctrl+R", "search the messages sent in every session; Enter puts one in the editor"},
	{"Ctrl+G", "edit the message in $VISUAL or $EDITOR"},
	{"Ctrl+V", "attach the clipboard's image (wl-paste or xclip)"},
	{"Esc", "abort the agent, or cancel a compaction, summary, handoff or shell command; twice: clear the editor, or on an empty one open the session tree (doubleEscapeAction)"},
	{"Ctrl+C", "clear the editor; twice on an empty editor: exit"},
	{"Ctrl+D", "exit (on an empty editor)"},
	{"Ctrl+Z", "suspend gopi to the shell; fg resumes it"},
	{"Ctrl+P", "next model (the --models list, else every model with a key)"},
	{"Ctrl+L", "pick the model (as /model)"},
	{"Shift+Tab", "next thinking level"},
	{"Ctrl+T", "show thinking in full, or collapsed"},
	{"Ctrl+O", "show every tool card in full (the transcript is drawn again), or cut them again"},
	{"Tab", "complete a /command or an @file"},
	{"!cmd, !!cmd", "run a shell command (!! keeps it out of the model's context)"},
	{"@path", "attach a file to the message"},
}

// onKey handles a key press.
func (m *model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if m.dialog != nil && m.picker == nil {
		return m.dialogKey(k)
	}
	if m.console != nil && m.picker == nil {
		return m.consoleKey(k)
	}
	if cmd, ok := m.planReviewKey(k); ok {
		return cmd
	}
	if p := m.picker; p != nil {
		done, cmd := p.key(k)
		if done && m.picker == p {
			m.picker = nil
		}
		return cmd
	}
	if d := m.dash; d != nil {
		done, cmd := d.key(k)
		if done && m.dash == d {
			m.dash = nil
		}
		return cmd
	}
	if cmd, ok := m.popupKey(k); ok {
		return cmd
	}
	switch k.String() {
	case "ctrl+c":
		if !m.ed.empty() {
			m.ed.clear()
			m.ctrlCAt = time.Time{}
			return nil
		}
		if time.Since(m.ctrlCAt) < doublePress {
			return m.quit()
		}
		m.ctrlCAt = time.Now()
		m.setNotice("Press Ctrl+C again to exit")
		return nil
	case "ctrl+d":
		if m.ed.empty() {
			return m.quit()
		}
	case "esc":
		m.loopPauseOnEsc()
		if !m.running && m.dismissBtw() {
			return nil
		}
		switch {
		case m.running:
			s := m.s
			m.setNotice("Aborting…")
			return func() tea.Msg {
				// Messages queued for the run would be lost with it: they go
				// back to the editor.
				steer, follow := s.Agent().ClearQueues()
				s.Abort()
				var texts []string
				for _, q := range append(steer, follow...) {
					if u, ok := q.(*ai.UserMessage); ok {
						texts = append(texts, userText(u.Content))
					}
				}
				return restoreMsg{texts}
			}
		case m.busy != "":
			return m.cancelBusy()
		case strings.HasPrefix(strings.TrimSpace(m.ed.text()), "!"):
			// As omp, Esc leaves shell mode: the command goes.
			m.ed.clear()
			m.escAt = time.Time{}
		case !m.ed.empty():
			// As omp, Esc keeps a draft: nothing is deleted.
			m.escAt = time.Time{}
		case time.Since(m.escAt) < doublePress:
			m.escAt = time.Time{}
			return m.escTwice()
		default:
			m.escAt = time.Now()
		}
		return nil
	case "enter":
		return m.send(agentsession.DeliverSteer)
	case "ctrl+enter":
		return m.send(agentsession.DeliverFollowUp)
	case "alt+enter":
		if m.running {
			return m.send(agentsession.DeliverFollowUp)
		}
		m.ed.ta.InsertString("\n")
		return nil
	case "up":
		if m.ed.older() {
			return nil
		}
	case "down":
		if m.ed.newer() {
			return nil
		}
	case "alt+esc":
		// Esc pressed twice faster than the terminal's input is read
		// arrives as one key.
		esc := tea.KeyPressMsg{Code: tea.KeyEscape}
		first := m.onKey(esc)
		return tea.Batch(first, m.onKey(esc))
	case "ctrl+o":
		return m.toggleToolOutput()
	case "ctrl+r":
		return m.searchHistory()
	case "ctrl+g":
		return m.editInEditor()
	case "ctrl+z":
		return m.suspend()
	case "ctrl+l":
		return m.cmdModel("")
	case "ctrl+v":
		return m.pasteImage()
	case "alt+up":
		return m.dequeue()
	case "ctrl+t":
		m.expand = !m.expand
		if m.expand {
			m.setNotice("Thinking is shown in full from now on")
		} else {
			m.setNotice("Thinking is collapsed from now on")
		}
		return nil
	case "ctrl+p":
		return m.cycleModel()
	case "shift+tab":
		return m.cycleThinking()
	case "tab":
		if cmd, ok := m.complete(); ok {
			return cmd
		}
		return nil
	}
	for _, sc := range m.opts.Shortcuts {
		if sc.Key == k.String() {
			ctx, run, key := m.ctx, sc.Run, sc.Key
			return m.busyCmd(key+" (extension)…", func() tea.Msg {
				if err := run(ctx); err != nil {
					return errMsg{fmt.Errorf("%s: %w", key, err)}
				}
				return nil
			})
		}
	}
	var cmd tea.Cmd
	m.ed.ta, cmd = m.ed.ta.Update(k)
	return tea.Batch(cmd, m.followEdit())
}

// send sends what is typed: a command, a shell command, or a message
// (delivered as d while the agent works).
func (m *model) send(d agentsession.Delivery) tea.Cmd {
	text := m.ed.text()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	// Only what was typed can make a command: a paste that starts with
	// "!" or "/" is a message (its marker is what the editor holds).
	typed := strings.TrimSpace(m.ed.ta.Value())
	command := strings.HasPrefix(typed, "/") || strings.HasPrefix(typed, "!")
	m.ed.remember(text)
	m.ed.clear()
	if !command {
		m.loopSent(text)
	}
	switch {
	case command:
		return m.submitAs(text, d)
	case m.running:
		return m.queue(text, d)
	}
	return m.prompt(text)
}

// submit runs a command, a shell command, or a prompt.
func (m *model) submit(text string) tea.Cmd {
	return m.submitAs(text, agentsession.DeliverSteer)
}

// submitAs is submit with the delivery a skill or template command uses
// while the agent works (Enter steers, Ctrl+Enter follows up).
func (m *model) submitAs(text string, d agentsession.Delivery) tea.Cmd {
	trimmed := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(trimmed, "/"):
		return m.command(trimmed, d)
	case strings.HasPrefix(trimmed, "!"):
		return m.bash(trimmed)
	}
	return m.prompt(text)
}

// prompt sends a message to the model, with the files it names with
// @path attached.
func (m *model) prompt(text string) tea.Cmd {
	m.prompting++
	ctx, s, cwd, home, images := m.ctx, m.s, m.opts.Cwd, m.opts.Home, m.takeImages()
	return func() tea.Msg {
		files := prompt.Mentions(text, cwd, home)
		err := s.Prompt(ctx, text, agentsession.PromptOptions{StreamingBehavior: agentsession.DeliverSteer, Files: files, Images: images})
		if err != nil && lastUserText(s) != text {
			// The message never reached the conversation: give it back.
			return tea.BatchMsg{
				func() tea.Msg { return editorMsg{text: text} },
				func() tea.Msg { return promptDoneMsg{err: err} },
			}
		}
		return promptDoneMsg{err: err}
	}
}

// queue delivers a message to the running agent.
func (m *model) queue(text string, d agentsession.Delivery) tea.Cmd {
	ctx, s, images := m.ctx, m.s, m.takeImages()
	return func() tea.Msg {
		if err := s.Prompt(ctx, text, agentsession.PromptOptions{StreamingBehavior: d, Images: images}); err != nil {
			return tea.BatchMsg{func() tea.Msg { return editorMsg{text: text} }, func() tea.Msg { return errMsg{err} }}
		}
		if d == agentsession.DeliverFollowUp {
			return noticeMsg{"Queued as a follow-up: sent when the agent finishes"}
		}
		return noticeMsg{"Steering: delivered before the agent's next step"}
	}
}

// bash runs "!cmd" (or "!!cmd", kept out of the context) in the
// session's shell.
func (m *model) bash(line string) tea.Cmd {
	exclude := strings.HasPrefix(line, "!!")
	cmdline := strings.TrimSpace(strings.TrimLeft(line, "!"))
	if cmdline == "" {
		return m.printSection(m.r.errorLine("Give a command after !, e.g. !git status"))
	}
	m.busy = "Running $ " + cmdline
	ctx, s := m.ctx, m.s
	return tea.Batch(m.tick(), func() tea.Msg {
		res, err := s.Shell().Execute(ctx, cmdline, exclude)
		return bashDoneMsg{res: res, cmd: cmdline, err: err}
	})
}

// cancelBusy stops the long command running.
func (m *model) cancelBusy() tea.Cmd {
	s, login := m.s, m.cancelLogin
	m.setNotice("Cancelling…")
	return func() tea.Msg {
		if login != nil {
			login()
		}
		s.Compactor().Abort()
		s.Compactor().AbortHandoff()
		s.Tree().AbortSummary()
		s.Shell().Abort()
		return nil
	}
}

// quit ends the program; Run stops the session's work afterwards.
func (m *model) quit() tea.Cmd {
	m.quitting = true
	return tea.Quit
}

// lastUserText is the text of the conversation's latest user message.
func lastUserText(s Session) string {
	msgs := s.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if u, ok := msgs[i].(*ai.UserMessage); ok {
			return userText(u.Content)
		}
	}
	return ""
}
