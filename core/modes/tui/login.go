package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// Logins is what /login and /logout use: core/auth's Logins, which launch
// passes. Its calls may take long (a browser sign-in) and run outside the
// program's loop.
type Logins interface {
	// Choices lists the providers to log in to.
	Choices() []auth.Choice
	// SignIn runs a subscription sign-in through ui and stores it.
	SignIn(ctx context.Context, id string, ui oauth.UI) error
	// SaveKey checks and stores an API key.
	SaveKey(ctx context.Context, id, key string) error
	// LoggedIn lists the providers /logout can remove.
	LoggedIn(ctx context.Context) ([]string, error)
	// Logout removes a provider's credentials; the text says what it did.
	Logout(ctx context.Context, provider string) (string, error)
}

// cmdLogin picks a provider (or takes the one named) and logs in: a
// sign-in shows its URL and asks for a pasted code when the browser cannot
// call back; an API key is typed into a masked line.
func (m *model) cmdLogin(args string) tea.Cmd {
	if m.opts.Logins == nil || m.ui == nil {
		return m.printSection(m.r.errorLine("Logins are not available here: use `gopi login` in a terminal"))
	}
	choices := m.opts.Logins.Choices()
	if args != "" {
		for _, c := range choices {
			if c.ID == args {
				return m.startLogin(c)
			}
		}
		return m.printSection(m.r.errorLine(fmt.Sprintf("Unknown provider %q: /login without a name lists them", args)))
	}
	var items []pickItem
	for _, c := range choices {
		kind := "API key"
		if c.SignIn {
			kind = "sign in"
		}
		label := fmt.Sprintf("%-20s %s %s", c.ID, c.Name, m.th.dim.Render("("+kind+")"))
		if c.LoggedIn {
			label += m.th.dim.Render(" logged in")
		}
		items = append(items, pickItem{label: label, search: c.ID + " " + c.Name, value: c})
	}
	m.picker = &picker{title: "Log in to", hint: "type to filter · enter logs in · esc closes", items: items,
		onPick: func(it pickItem) tea.Cmd { return m.startLogin(it.value.(auth.Choice)) }}
	return nil
}

// startLogin runs one login in the background; Esc cancels it.
func (m *model) startLogin(c auth.Choice) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancelLogin = cancel
	logins, ui := m.opts.Logins, m.ui
	return m.busyCmd("Logging in to "+c.ID+"…", func() tea.Msg {
		defer cancel()
		var err error
		if c.SignIn {
			err = logins.SignIn(ctx, c.ID, loginUI{ui})
		} else {
			var key string
			key, err = ui.Secret(ctx, "Paste your "+c.Name+" API key")
			if err == nil {
				err = logins.SaveKey(ctx, c.ID, key)
			}
		}
		if err != nil {
			return errMsg{fmt.Errorf("/login %s: %w", c.ID, err)}
		}
		return printMsg{[]string{"Logged in to " + c.ID + "; credentials saved in agent.db"}}
	})
}

// cmdLogout picks one of the providers logged in through gopi (or takes
// the one named) and removes its credentials.
func (m *model) cmdLogout(args string) tea.Cmd {
	if m.opts.Logins == nil {
		return m.printSection(m.r.errorLine("Logins are not available here: use `gopi logout` in a terminal"))
	}
	logins, ctx := m.opts.Logins, m.ctx
	logout := func(p string) tea.Cmd {
		return func() tea.Msg {
			text, err := logins.Logout(ctx, p)
			if err != nil {
				return errMsg{fmt.Errorf("/logout: %w", err)}
			}
			return printMsg{[]string{text}}
		}
	}
	if args != "" {
		return logout(args)
	}
	providers, err := logins.LoggedIn(ctx)
	if err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	if len(providers) == 0 {
		return m.printSection(m.r.notice("No credentials stored in gopi's agent.db"))
	}
	var items []pickItem
	for _, p := range providers {
		items = append(items, pickItem{label: p, value: p})
	}
	m.picker = &picker{title: "Log out from", hint: "enter logs out · esc closes", items: items,
		onPick: func(it pickItem) tea.Cmd { return logout(it.value.(string)) }}
	return nil
}

// loginUI is oauth.UI over the program's dialogs: the URL is printed
// (with the instructions), progress is a notice, a prompt is an input
// line.
type loginUI struct{ ui *dialogUI }

// Auth prints the URL to open and what to do there.
func (u loginUI) Auth(info oauth.AuthInfo) {
	lines := []string{"Open this URL in your browser:", info.URL}
	if info.Instructions != "" {
		lines = append(lines, info.Instructions)
	}
	u.ui.send(printMsg{[]string{strings.Join(lines, "\n")}})
}

// Progress shows a step as a notice.
func (u loginUI) Progress(message string) { u.ui.Notify(message, "info") }

// Prompt asks on an input line (again while empty, unless empty is
// allowed).
func (u loginUI) Prompt(ctx context.Context, p oauth.Prompt) (string, error) {
	for {
		s, err := u.ui.Input(ctx, p.Message, p.Placeholder, 0)
		if err != nil {
			return "", err
		}
		if s = strings.TrimSpace(s); s != "" || p.AllowEmpty {
			return s, nil
		}
	}
}
