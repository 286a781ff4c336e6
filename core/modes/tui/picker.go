package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// pickItem is one choice of a picker.
type pickItem struct {
	label  string // the line shown (may hold colours)
	search string // what typing matches against; the label when empty
	value  any
	active bool // the current choice (marked)
	hidden bool // left out by the picker's own filter (the tree's filters)
}

// picker is a list overlay: type to narrow it, Up/Down to move, Enter to
// choose, Esc to close. Tab calls onTab when set (the tree cycles its
// filter with it).
type picker struct {
	title    string
	hint     string
	items    []pickItem
	query    string
	cursor   int // index into shown()
	onPick   func(pickItem) tea.Cmd
	onTab    func(p *picker)
	onCancel func() // called when the picker is dismissed
	dialog   int64  // the dialog it answers, 0 for a command's picker
	maxShown int
}

// shown returns the items the query and filter keep.
func (p *picker) shown() []int {
	words := strings.Fields(strings.ToLower(p.query))
	var out []int
	for i, it := range p.items {
		if it.hidden {
			continue
		}
		text := it.search
		if text == "" {
			text = ansi.Strip(it.label)
		}
		text = strings.ToLower(text)
		ok := true
		for _, w := range words {
			if !strings.Contains(text, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// key handles a key press; done says the picker closes, cmd is what the
// choice runs.
func (p *picker) key(k tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	shown := p.shown()
	switch k.String() {
	case "esc", "ctrl+c":
		if p.onCancel != nil {
			p.onCancel()
		}
		return true, nil
	case "enter":
		if len(shown) == 0 {
			return false, nil
		}
		return true, p.onPick(p.items[shown[min(p.cursor, len(shown)-1)]])
	case "up", "ctrl+p":
		if p.cursor > 0 {
			p.cursor--
		}
	case "down", "ctrl+n":
		if p.cursor < len(shown)-1 {
			p.cursor++
		}
	case "pgup":
		p.cursor = max(0, p.cursor-p.page())
	case "pgdown":
		p.cursor = min(max(0, len(shown)-1), p.cursor+p.page())
	case "home":
		p.cursor = 0
	case "end":
		p.cursor = max(0, len(shown)-1)
	case "tab":
		if p.onTab != nil {
			p.onTab(p)
			p.cursor = p.activeIndex()
		}
	case "backspace":
		if p.query != "" {
			r := []rune(p.query)
			p.query = string(r[:len(r)-1])
			p.cursor = 0
		}
	default:
		if k.Text != "" {
			p.query += k.Text
			p.cursor = 0
		}
	}
	return false, nil
}

func (p *picker) page() int { return max(1, p.maxShown-1) }

// view draws the picker within width and at most height lines.
func (p *picker) view(th theme, width, height int) string {
	p.maxShown = max(3, height-4)
	shown := p.shown()
	if p.cursor >= len(shown) {
		p.cursor = max(0, len(shown)-1)
	}
	var b strings.Builder
	b.WriteString(th.dim.Render(strings.Repeat("─", max(10, min(width-1, 200)))) + "\n")
	// Wrapped, not cut at the edge: a dialog's text (a permission
	// question's command) must show to its end.
	b.WriteString(th.title.Render(ansi.Wrap(p.title, max(10, width-1), "")))
	if p.query != "" {
		b.WriteString("  " + th.accent.Render("filter: "+p.query))
	}
	b.WriteString("\n")
	start := 0
	if p.cursor >= p.maxShown {
		start = p.cursor - p.maxShown + 1
	}
	for i := start; i < len(shown) && i < start+p.maxShown; i++ {
		it := p.items[shown[i]]
		mark := "  "
		if it.active {
			mark = "• "
		}
		line := ansi.Truncate(mark+it.label, max(10, width-1), "…")
		if i == p.cursor {
			line = th.selected.Render(ansi.Strip(line))
		}
		b.WriteString(line + "\n")
	}
	if len(shown) == 0 {
		b.WriteString(th.dim.Render("  (nothing matches)") + "\n")
	}
	hint := fmt.Sprintf("%d of %d · type to filter · ↑↓ move · enter choose · esc close", min(len(shown), p.cursor+1), len(shown))
	if p.hint != "" {
		hint = p.hint + " · " + hint
	}
	b.WriteString(th.dim.Render(ansi.Truncate(hint, max(10, width-1), "…")))
	return b.String()
}

// activeIndex is the position of the last active item among those shown
// (the current choice), else 0.
func (p *picker) activeIndex() int {
	at := 0
	for i, idx := range p.shown() {
		if p.items[idx].active {
			at = i
		}
	}
	return at
}
