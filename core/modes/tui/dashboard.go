package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/config"
)

// A control centre (/extensions, /agents) takes the editor's place until
// Esc closes it: source tabs on top, a list on the left, the selected
// entry's details on the right, a line of keys below. It prints nothing,
// so the conversation above it stays as it was.

// dashboard is an open control centre.
type dashboard interface {
	// key handles a key press; done closes the centre.
	key(k tea.KeyPressMsg) (done bool, cmd tea.Cmd)
	// paste adds pasted text to the search.
	paste(text string)
	// view draws the centre within width and height.
	view(th theme, width, height int) string
}

// dashTab is one source tab of a control centre.
type dashTab struct {
	id, label string
	count     int  // entries under the tab; shown when positive
	off       bool // the source is turned off (drawn dim, marked)
}

// dashFrame is what a control centre draws, before it is fitted into
// the space there is.
type dashFrame struct {
	title  string
	tabs   []dashTab
	active int      // index of the selected tab
	notice string   // a line under the tabs ("" none)
	body   []string // the lines between tabs and keys, full height
	// columns, when set, draws the body as a list and a detail pane side
	// by side for the lines there are (body is then ignored).
	columns func(lines, leftWidth, rightWidth int) (left, right []string)
	hint    string // the keys
}

// compactBelow is the height under which a centre drops its blank lines.
const compactBelow = 20

// render fits f into width × height: borders, title, tabs, body and keys;
// the body is cut to the lines left.
func (f dashFrame) render(th theme, width, height int) string {
	width = max(20, width)
	rule := th.dim.Render(strings.Repeat("─", max(10, min(width-1, 200))))
	head := []string{rule, th.title.Render(ansi.Truncate(" "+f.title, width-1, "…"))}
	head = append(head, f.tabLines(th, width)...)
	spacer := height >= compactBelow
	if spacer {
		head = append(head, "")
	}
	if f.notice != "" {
		head = append(head, th.ok.Render(ansi.Truncate(f.notice, width-1, "…")))
	}
	var tail []string
	if spacer {
		tail = append(tail, "")
	}
	for _, l := range strings.Split(ansi.Wrap(f.hint, width-1, ""), "\n") {
		tail = append(tail, th.dim.Render(l))
	}
	tail = append(tail, rule)
	room := max(3, height-len(head)-len(tail))
	body := f.body
	if f.columns != nil {
		lw, rw := splitWidth(width - 1)
		left, right := f.columns(room, lw, rw)
		body = twoColumns(th, left, right, width-1, room)
	}
	if len(body) > room {
		body = body[:room]
	}
	for i, l := range body {
		body[i] = ansi.Truncate(l, width-1, "…")
	}
	return strings.Join(append(append(head, body...), tail...), "\n")
}

// tabLines draws the tab bar, wrapped to width.
func (f dashFrame) tabLines(th theme, width int) []string {
	var lines []string
	line, w := " ", 1
	for i, t := range f.tabs {
		label := t.label
		if t.count > 0 {
			label += " (" + itoa(t.count) + ")"
		}
		if t.off {
			label = markOff + " " + label
		}
		label = " " + label + " "
		lw := ansi.StringWidth(label)
		if w+lw > width-1 && w > 1 {
			lines = append(lines, line)
			line, w = " ", 1
		}
		switch {
		case i == f.active:
			line += th.selected.Render(label)
		case t.off:
			line += th.dim.Render(label)
		default:
			line += label
		}
		w += lw
	}
	return append(lines, line)
}

// twoColumns sets left and right side by side, split in the middle with
// a rule, at most lines high.
func twoColumns(th theme, left, right []string, width, lines int) []string {
	lw, rw := splitWidth(width)
	n := min(lines, max(len(left), len(right)))
	sep := th.dim.Render(" │ ")
	out := make([]string, n)
	for i := range n {
		var l, r string
		if i < len(left) {
			l = ansi.Truncate(left[i], lw, "…")
		}
		if i < len(right) {
			r = ansi.Truncate(right[i], rw, "…")
		}
		out[i] = l + strings.Repeat(" ", max(0, lw-ansi.StringWidth(l))) + sep + r
	}
	return out
}

// splitWidth divides width between the two columns and their rule.
func splitWidth(width int) (left, right int) {
	left = width / 2
	return left, max(1, width-left-3)
}

// wrapLines wraps text to width and returns its lines, the text cleaned
// of control characters.
func wrapLines(text string, width int) []string {
	text = strings.TrimSpace(clean(strings.ReplaceAll(text, "\t", "    ")))
	if text == "" {
		return nil
	}
	return strings.Split(ansi.Wrap(text, max(10, width), ""), "\n")
}

// Marks of a control centre's entries.
const (
	markOn       = "●" // active or enabled
	markOff      = "⦸" // turned off
	markShadowed = "◐" // hidden by an entry of the same name
)

// searchKey reports the character typing adds to a centre's search: a
// printable ASCII character other than space, j and k (which move).
func searchKey(k tea.KeyPressMsg) (string, bool) {
	if k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 || len(k.Text) != 1 {
		return "", false
	}
	c := k.Text[0]
	if c <= ' ' || c >= 127 || c == 'j' || c == 'k' {
		return "", false
	}
	return k.Text, true
}

// searchLine draws a centre's search field.
func searchLine(th theme, query string) string {
	if query == "" {
		return th.dim.Render("Search: type to filter")
	}
	return th.dim.Render("Search: ") + clean(query) + th.accent.Render("_")
}

// settingSaver writes one setting from a control centre, in order: a
// change made while the previous write runs is written after it, with the
// newest value, so the file ends with what the centre shows.
type settingSaver struct {
	settings *config.Settings
	key      string
	value    func() any // the value to write now
	running  bool
	again    bool
}

// savedMsg says a centre's write of a setting ended.
type savedMsg struct {
	s   *settingSaver
	err error
}

// save starts a write, or marks one to follow the write in flight.
func (s *settingSaver) save() tea.Cmd {
	if s.running {
		s.again = true
		return nil
	}
	s.running = true
	st, key, v := s.settings, s.key, s.value()
	return func() tea.Msg { return savedMsg{s: s, err: st.Set(key, v)} }
}

// done handles the end of a write: the next one starts when a change came
// meanwhile; a failure is printed.
func (s *settingSaver) done(msg savedMsg, m *model) tea.Cmd {
	s.running = false
	var cmds []tea.Cmd
	if msg.err != nil {
		cmds = append(cmds, m.printSection(m.r.errorLine("Could not save "+s.key+": "+msg.err.Error()+"; fix the settings file and toggle again")))
	}
	if s.again {
		s.again = false
		cmds = append(cmds, s.save())
	}
	return tea.Batch(cmds...)
}

// stringsValue turns names into a setting's list value.
func stringsValue(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}
