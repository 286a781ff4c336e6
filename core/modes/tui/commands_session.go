package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
)

// The commands that work on the session as a whole: its file (/fork,
// /drop, /move, /rename), its last turn (/retry), a question beside it
// (/btw), and its transcript (/dump).

// cmdFork copies the session into a new file and continues there.
func (m *model) cmdFork(string) tea.Cmd {
	if m.running {
		return m.printSection(m.r.warning("Wait for the current answer to finish, or abort it (Esc), before forking"))
	}
	ctx, s := m.ctx, m.s
	return m.busyCmd("Forking the session…", func() tea.Msg {
		file, cancelled, err := s.Tree().Fork(ctx)
		switch {
		case errors.Is(err, agentsession.ErrNotSaved):
			return errMsg{errors.New("Fork failed: the session is not saved (--no-session), so there is nothing to fork")}
		case err != nil:
			return errMsg{fmt.Errorf("Fork failed: %w", err)}
		case cancelled:
			return noticeMsg{"A hook kept the current session: nothing was forked"}
		}
		return tea.BatchMsg{func() tea.Msg { return printMsg{notices: []string{"✓ Session forked to " + filepath.Base(file)}} }, m.refreshStatus()}
	})
}

// cmdDrop deletes the session's file and starts a new session.
func (m *model) cmdDrop(string) tea.Cmd {
	if m.s.SessionFile() == "" {
		return m.printSection(m.r.errorLine("Nothing to drop: the session is kept in memory (--no-session)"))
	}
	ctx, s := m.ctx, m.s
	return m.busyCmd("Dropping the session…", func() tea.Msg {
		cancelled, err := s.Tree().Drop(ctx)
		switch {
		case err != nil:
			return errMsg{err}
		case cancelled:
			return noticeMsg{"A hook kept the current session: nothing was dropped"}
		}
		return reloadMsg{marker: "✓ session dropped; a new one started"}
	})
}

// cmdMove moves the session to another working directory.
func (m *model) cmdMove(args string) tea.Cmd {
	if strings.TrimSpace(args) == "" {
		return m.printSection(m.r.errorLine("Usage: /move <path>"))
	}
	if m.running {
		return m.printSection(m.r.warning("Wait for the current answer to finish, or abort it (Esc), before moving the session"))
	}
	ctx, s := m.ctx, m.s
	return m.busyCmd("Moving the session…", func() tea.Msg {
		dir, err := s.Tree().Move(ctx, args)
		if err != nil {
			return errMsg{fmt.Errorf("Move failed: %w", err)}
		}
		return tea.BatchMsg{func() tea.Msg { return movedMsg{dir: dir} }, m.refreshStatus()}
	})
}

// movedMsg: the session now works in dir.
type movedMsg struct{ dir string }

// onMoved makes dir the UI's working directory (footer, @file
// completion, attachments).
func (m *model) onMoved(dir string) tea.Cmd {
	m.opts.Cwd = dir
	m.opts.ScanCache = nil // the session's scan cache walks the old directory
	return tea.Batch(m.printSection(m.r.notice("✓ Session moved to "+dir)), m.refreshStatus())
}

// cmdRename names the session.
func (m *model) cmdRename(args string) tea.Cmd {
	if args == "" {
		return m.printSection(m.r.errorLine("Usage: /rename <title>"))
	}
	if err := m.s.Tree().SetName(args); err != nil {
		return m.printSection(m.r.errorLine("Rename failed: " + err.Error()))
	}
	name := m.s.State().SessionName
	if name == "" {
		return m.printSection(m.r.errorLine("Session name cannot be empty"))
	}
	m.setNotice(fmt.Sprintf("Session renamed to %q", name))
	return m.refreshStatus()
}

// cmdRetry sends the last turn again when it failed or was aborted.
func (m *model) cmdRetry(string) tea.Cmd {
	if m.running {
		return m.printSection(m.r.warning("The agent is working: /retry is for a turn that failed or was aborted"))
	}
	m.prompting++
	ctx, s := m.ctx, m.s
	return func() tea.Msg {
		did, err := s.Conversation().Retry(ctx)
		if !did && err == nil {
			return tea.BatchMsg{func() tea.Msg { return noticeMsg{"Nothing to retry"} }, func() tea.Msg { return promptDoneMsg{} }}
		}
		return promptDoneMsg{err: err}
	}
}

// btwMsg carries /btw's answer (or its failure).
type btwMsg struct {
	question, answer string
	err              error
}

// cmdBtw asks a side question about the conversation; nothing is added to
// it. It may run while the agent works; the live area shows it waiting,
// Esc dismisses it, and a second /btw replaces it.
func (m *model) cmdBtw(args string) tea.Cmd {
	if args == "" {
		return m.printSection(m.r.notice("Usage: /btw <question>"))
	}
	if m.btwCancel != nil {
		m.btwCancel()
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.btwCancel, m.btwQuestion = cancel, args
	s := m.s
	return tea.Batch(m.tick(), func() tea.Msg {
		defer cancel()
		answer, err := s.Conversation().SideQuestion(ctx, args, nil)
		return btwMsg{question: args, answer: answer, err: err}
	})
}

// onBtw prints a side question's answer.
func (m *model) onBtw(msg btwMsg) tea.Cmd {
	if msg.question != m.btwQuestion {
		return nil // a later /btw replaced it
	}
	m.btwCancel, m.btwQuestion = nil, ""
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) {
			return nil
		}
		return m.printSection(m.r.errorLine("/btw: " + msg.err.Error()))
	}
	return m.printSection(m.th.title.Render("btw: ")+clean(msg.question), m.r.markdown(msg.answer))
}

// cmdDump copies the conversation as Markdown to the clipboard.
func (m *model) cmdDump(string) tea.Cmd {
	text := m.s.Conversation().Text()
	if text == "" {
		return m.printSection(m.r.errorLine("No messages to dump yet"))
	}
	m.setNotice("Session copied to clipboard")
	return tea.SetClipboard(text)
}

// sessionDelete deletes the session's file after a confirmation, starts a
// new session and offers the others (/session delete).
func (m *model) sessionDelete() tea.Cmd {
	file := m.s.SessionFile()
	if file == "" {
		return m.printSection(m.r.errorLine("No session file to delete: the session is kept in memory (--no-session)"))
	}
	if _, err := os.Stat(file); err != nil {
		return m.printSection(m.r.errorLine("The session has not been saved yet: there is nothing to delete"))
	}
	items := []pickItem{{label: "Keep the session", value: false}, {label: "Delete " + filepath.Base(file) + " for good", value: true}}
	m.picker = &picker{title: "Delete this session? You go to the session list after.", items: items, onPick: func(it pickItem) tea.Cmd {
		if !it.value.(bool) {
			m.setNotice("Delete cancelled")
			return nil
		}
		ctx, s := m.ctx, m.s
		return m.busyCmd("Deleting the session…", func() tea.Msg {
			cancelled, err := s.Tree().Drop(ctx)
			switch {
			case err != nil:
				return errMsg{err}
			case cancelled:
				return noticeMsg{"Delete cancelled: a hook kept the session"}
			}
			return batch(reloadMsg{marker: "session deleted"}, resumePickerMsg{})
		})
	}}
	return nil
}

// resumePickerMsg opens the /resume picker.
type resumePickerMsg struct{}

// btwLine is the live area's line for a side question waiting for its
// answer ("" when none is).
func (m *model) btwLine() string {
	if m.btwCancel == nil {
		return ""
	}
	return m.th.accent.Render(spinner[m.spin%len(spinner)]) + " btw: " + oneLine(clean(m.btwQuestion), max(20, m.width-40)) + m.th.dim.Render(" · esc dismisses")
}

// dismissBtw drops the side question waiting for its answer; it reports
// whether there was one.
func (m *model) dismissBtw() bool {
	if m.btwCancel == nil {
		return false
	}
	m.btwCancel()
	m.btwCancel, m.btwQuestion = nil, ""
	m.setNotice("Side question dismissed")
	return true
}
