package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/share"
)

// The commands that switch a way of working on or off (/fast, /loop,
// /force, /background, /browser) or publish the session (/share).

// cmdFast toggles fast mode (OpenAI's priority service tier).
func (m *model) cmdFast(args string) tea.Cmd {
	ms := m.s.Model()
	var on bool
	switch strings.ToLower(strings.TrimSpace(args)) {
	case "", "toggle":
		on = !ms.FastMode()
	case "on":
		on = true
	case "off":
		on = false
	case "status":
		state := "off"
		if ms.FastMode() {
			state = "on"
		}
		m.setNotice("Fast mode is " + state)
		return nil
	default:
		return m.printSection(m.r.notice("Usage: /fast [on|off|status]"))
	}
	if err := ms.SetFastMode(on); err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	if on {
		m.setNotice("Fast mode enabled (OpenAI priority tier)")
	} else {
		m.setNotice("Fast mode disabled")
	}
	return m.refreshStatus()
}

// cmdBrowser answers for the browser tool, which gopi does not have yet.
func (m *model) cmdBrowser(args string) tea.Cmd {
	mode := strings.ToLower(strings.TrimSpace(args))
	switch mode {
	case "", "headless", "hidden", "visible", "show", "headful":
	default:
		return m.printSection(m.r.notice("Usage: /browser [headless|visible]"))
	}
	if !m.s.Config().Settings.Bool("browser.enabled") {
		return m.printSection(m.r.warning("The browser tool is disabled (browser.enabled: false)"))
	}
	mgr := m.s.Tools().Services().Browser
	if mgr == nil {
		return m.printSection(m.r.warning("This session has no browser tool"))
	}
	if mode == "" {
		if mgr.Headless() {
			return m.printSection(m.r.notice("Browser mode: headless (no window). /browser visible shows the browser's window"))
		}
		return m.printSection(m.r.notice("Browser mode: visible (a window). /browser headless hides it"))
	}
	headless := mode == "headless" || mode == "hidden"
	return func() tea.Msg {
		closed, err := mgr.SetHeadless(headless)
		return browserModeMsg{headless: headless, closed: closed, err: err}
	}
}

// browserModeMsg is the outcome of /browser headless|visible (switching
// may close a running Chromium, so it runs off the update loop).
type browserModeMsg struct {
	headless bool
	closed   int
	err      error
}

func (m *model) onBrowserMode(msg browserModeMsg) tea.Cmd {
	if msg.err != nil {
		return m.printSection(m.r.errorLine("Browser mode unchanged: " + msg.err.Error()))
	}
	text := "Browser mode: visible (the browser opens a window)"
	if msg.headless {
		text = "Browser mode: headless (no window)"
	}
	switch msg.closed {
	case 0:
	case 1:
		text += "; its open tab was closed (the next open starts the browser anew)"
	default:
		text += fmt.Sprintf("; its %d open tabs were closed (the next open starts the browser anew)", msg.closed)
	}
	return m.printSection(m.r.notice(text + ". For this session only: browser.headless in /settings keeps it"))
}

// cmdForce makes the next model call use one tool; text after the tool's
// name is sent as a prompt.
func (m *model) cmdForce(args string) tea.Cmd {
	name, text, _ := strings.Cut(strings.TrimSpace(args), " ")
	if name == "" {
		return m.printSection(m.r.errorLine("Usage: /force <tool-name> [prompt]"))
	}
	found := false
	for _, t := range m.s.Agent().Tools() {
		if t.Definition().Name == name {
			found = true
		}
	}
	if !found {
		return m.printSection(m.r.errorLine(fmt.Sprintf("No tool %q is offered to the model: /tools lists them", name)))
	}
	m.s.Agent().ForceToolChoice(name, "/force")
	m.setNotice("Next turn forced to use " + name)
	if text = strings.TrimSpace(text); text != "" {
		if m.running {
			return m.queue(text, agentsession.DeliverSteer)
		}
		return m.prompt(text)
	}
	return nil
}

// cmdShare exports the session and publishes it as a secret gist.
func (m *model) cmdShare(string) tea.Cmd {
	ctx, s, env := m.ctx, m.s, m.opts.Environ
	return m.busyCmd("Creating a secret gist…", func() tea.Msg {
		dir, err := os.MkdirTemp("", "gopi-share-")
		if err != nil {
			return errMsg{fmt.Errorf("Failed to export session: %w", err)}
		}
		defer os.RemoveAll(dir)
		file, err := s.ExportHTML(filepath.Join(dir, "session.html"))
		if err != nil {
			return errMsg{fmt.Errorf("Failed to export session: %w", err)}
		}
		res, err := share.Gist(ctx, file, share.Options{Env: env})
		if err != nil {
			if ctx.Err() != nil {
				return noticeMsg{"Share cancelled"}
			}
			return errMsg{err}
		}
		return printMsg{notices: []string{"Share URL: " + res.PreviewURL + "\nGist: " + res.GistURL}}
	})
}

// cmdBackground lets the agent finish its work with the UI gone: the
// interactive mode ends, the process stops itself (SIGTSTP) so the shell's
// `bg` can continue it, and it exits when the agent is done.
func (m *model) cmdBackground(string) tea.Cmd {
	if m.backgrounded {
		m.setNotice("Background mode is already on")
		return nil
	}
	if !m.running && m.status.queued == 0 {
		return m.printSection(m.r.warning("The agent is idle: nothing to continue in the background"))
	}
	m.backgrounded = true
	return m.quit()
}

// waitInBackground is what Run does after /background: it says how to
// continue, stops the process for the shell's job control when out is a
// terminal, and waits until the agent has finished.
func waitInBackground(ctx context.Context, s Session, out any) {
	w, _ := out.(interface{ Write([]byte) (int, error) })
	if w != nil {
		fmt.Fprintln(w, "Background mode enabled. Run `bg` to continue in background.")
	}
	if !suspendForJobControl(out) && w != nil {
		fmt.Fprintln(w, "Backgrounding needs POSIX job control on a terminal; continuing in the foreground.")
	}
	_ = s.Turn().WaitIdle(ctx)
}
