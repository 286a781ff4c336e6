package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The project trust question: before the session exists (its MCP servers
// and extensions start with it), a small program of its own asks whether
// the project may run what its files ask for. See config.ProjectTrust.

// TrustAnswer is the user's answer to the project trust question.
type TrustAnswer int

// Answers.
const (
	TrustNotNow TrustAnswer = iota // not trusted this time; asked again next time (Esc)
	TrustYes                       // trusted, and remembered
	TrustNo                        // not trusted, and remembered
	TrustQuit                      // leave gopi (Ctrl+C)
)

// TrustQuestion is what AskTrust shows.
type TrustQuestion struct {
	Path    string   // the project
	Items   []string // what it asks for, one line each
	Changed bool     // an earlier answer was for other requests
	// AnswersFile is where answers are remembered, named in the choices.
	AnswersFile string
}

// TrustOptions configure AskTrust.
type TrustOptions struct {
	Input   io.Reader // the terminal's input
	Output  io.Writer // the terminal
	Environ []string  // the terminal's environment (TERM, …)
	NoColor bool
}

// AskTrust asks the trust question on the terminal and returns the
// answer; ctx ending is TrustQuit.
func AskTrust(ctx context.Context, q TrustQuestion, o TrustOptions) (TrustAnswer, error) {
	m := newTrustModel(q, o.NoColor)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(o.Input), tea.WithOutput(o.Output)}
	if o.Environ != nil {
		popts = append(popts, tea.WithEnvironment(o.Environ))
	}
	if _, err := tea.NewProgram(m, popts...).Run(); err != nil {
		if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
			return TrustQuit, nil
		}
		return TrustQuit, fmt.Errorf("ask whether to trust the project: %w", err)
	}
	if !m.done {
		return TrustQuit, nil
	}
	return m.answer, nil
}

// trustChoices are the choices in the order shown.
var trustChoices = []struct {
	answer TrustAnswer
	key    string
	label  string
}{
	{TrustYes, "y", "Yes, trust this project"},
	{TrustNo, "n", "No, do not trust it"},
	{TrustNotNow, "esc", "Not now (ask again next time)"},
}

// trustModel is the question's Bubble Tea model.
type trustModel struct {
	q      TrustQuestion
	th     theme
	width  int
	sel    int // index in trustChoices
	answer TrustAnswer
	done   bool
}

func newTrustModel(q TrustQuestion, noColor bool) *trustModel {
	return &trustModel{q: q, th: newTheme(true, noColor), width: 80, sel: 2}
}

// Init starts nothing.
func (m *trustModel) Init() tea.Cmd { return nil }

// Update handles the keys: y, n, Esc answer at once; the arrows and Tab
// move, Enter takes the choice under the cursor; Ctrl+C quits.
func (m *trustModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = max(20, msg.Width)
	case tea.KeyPressMsg:
		switch k := msg.String(); k {
		case "ctrl+c", "ctrl+d":
			return m.finish(TrustQuit)
		case "y", "Y":
			return m.finish(TrustYes)
		case "n", "N":
			return m.finish(TrustNo)
		case "esc":
			return m.finish(TrustNotNow)
		case "up", "shift+tab", "k":
			m.sel = (m.sel + len(trustChoices) - 1) % len(trustChoices)
		case "down", "tab", "j":
			m.sel = (m.sel + 1) % len(trustChoices)
		case "enter":
			return m.finish(trustChoices[m.sel].answer)
		}
	}
	return m, nil
}

func (m *trustModel) finish(a TrustAnswer) (tea.Model, tea.Cmd) {
	m.answer, m.done = a, true
	return m, tea.Quit
}

// maxTrustItems is how many requests are listed before "… and N more".
const maxTrustItems = 12

// View draws the question, or what was answered once it is done.
func (m *trustModel) View() tea.View {
	fit := func(s string) string { return ansi.Truncate(clean(s), max(10, m.width-1), "…") }
	if m.done {
		var s string
		switch m.answer {
		case TrustYes:
			s = "Trusted " + m.q.Path + "."
		case TrustNo:
			s = "Not trusted: " + m.q.Path + " (remembered)."
		case TrustNotNow:
			s = "Not trusted this time: " + m.q.Path + "."
		default:
			s = ""
		}
		return tea.NewView(fit(s) + "\n")
	}
	var b strings.Builder
	head := "This project asks to run code or to change protections:"
	if m.q.Changed {
		head = "This project's requests changed since your last answer:"
	}
	b.WriteString(m.th.warn.Render(fit(head)) + "\n")
	b.WriteString(m.th.dim.Render(fit("  "+m.q.Path)) + "\n\n")
	for i, it := range m.q.Items {
		if i == maxTrustItems {
			b.WriteString(fit(fmt.Sprintf("  … and %d more", len(m.q.Items)-i)) + "\n")
			break
		}
		b.WriteString(fit("  • "+it) + "\n")
	}
	b.WriteString("\n" + fit("Trust it? Only say yes if you trust where it comes from. Without trust gopi runs without these.") + "\n")
	for i, c := range trustChoices {
		line := fmt.Sprintf("  %-3s %s", c.key, c.label)
		if i == m.sel {
			line = m.th.selected.Render(fit("› " + line[2:]))
		} else {
			line = fit(line)
		}
		b.WriteString(line + "\n")
	}
	if m.q.AnswersFile != "" {
		b.WriteString(m.th.dim.Render(fit("Answers are kept in "+m.q.AnswersFile+".")) + "\n")
	}
	return tea.NewView(b.String())
}
