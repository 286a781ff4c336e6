package tui

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/prompthistory"
)

// historySearchLimit is how many of the newest prompts Ctrl+R searches.
const historySearchLimit = 2000

// historyTimeout bounds one read or write of the prompt history (another
// gopi holding its lock must not freeze the editor).
const historyTimeout = 2 * time.Second

// PromptHistory keeps the prompts sent across runs: core/prompthistory's
// Store.
type PromptHistory interface {
	Add(ctx context.Context, prompt, cwd string) error
	Recent(ctx context.Context, limit int) ([]prompthistory.Entry, error)
}

// loadHistory reads the newest prompts for Up/Down, oldest first; none
// when there is no history or it cannot be read (history is a
// convenience, never an error).
func loadHistory(ctx context.Context, h PromptHistory) []string {
	if h == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, historyTimeout)
	defer cancel()
	es, err := h.Recent(ctx, historyLimit)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(es))
	for _, e := range slices.Backward(es) {
		out = append(out, e.Prompt)
	}
	return out
}

// saveHistory is the editor's way to keep a sent prompt across runs; nil
// when there is no history.
func saveHistory(ctx context.Context, h PromptHistory, cwd string) func(string) {
	if h == nil {
		return nil
	}
	return func(text string) {
		ctx, cancel := context.WithTimeout(ctx, historyTimeout)
		defer cancel()
		_ = h.Add(ctx, text, cwd)
	}
}

// searchHistory is Ctrl+R: a picker over the prompts sent in every
// session, newest first, narrowed by the words typed; Enter puts the
// chosen prompt in the editor (replacing what is typed), Esc leaves the
// editor as it was.
func (m *model) searchHistory() tea.Cmd {
	var prompts []string
	if m.opts.History != nil {
		ctx, cancel := context.WithTimeout(m.ctx, historyTimeout)
		es, err := m.opts.History.Recent(ctx, historySearchLimit)
		cancel()
		if err != nil {
			return m.printSection(m.r.errorLine("Could not read the prompt history: " + err.Error()))
		}
		for _, e := range es {
			prompts = append(prompts, e.Prompt)
		}
	} else {
		for _, p := range slices.Backward(m.ed.history) {
			prompts = append(prompts, p)
		}
	}
	if len(prompts) == 0 {
		m.setNotice("No prompts in the history yet")
		return nil
	}
	p := &picker{title: "Search history (ctrl+r)"}
	for _, text := range prompts {
		p.items = append(p.items, pickItem{label: clean(strings.Join(strings.Fields(text), " ")), search: text, value: text})
	}
	p.onPick = func(it pickItem) tea.Cmd {
		m.ed.set(it.value.(string))
		return nil
	}
	m.picker = p
	return nil
}
