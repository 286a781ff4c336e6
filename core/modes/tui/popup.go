package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/search/fuzzy"
)

// The completion popup is the list drawn under the editor while a word
// is being completed: commands after a "/" that starts the message, files
// after an "@" (fuzzy, through the session's scan cache), and entries of a
// directory for a plain path on Tab. It follows the typing: every edit
// recomputes it (files arrive from a command; a stale answer is dropped).
// Up and Down move (wrapping), Tab takes the entry, Enter takes it too and,
// for a command, sends it; Esc closes the list and leaves the text.

// popupKind says what a popup completes.
type popupKind uint8

const (
	popupCommand popupKind = iota + 1 // "/name" at the start of the message
	popupFile                         // "@path" anywhere
	popupPath                         // a plain path, opened with Tab
)

// Layout of the popup.
const (
	popupDefaultVisible = 5  // rows shown (autocompleteMaxVisible)
	popupNameColumn     = 32 // width of the name column before descriptions
	popupFileResults    = 100
	popupFileTimeout    = 10 * time.Second // one @ search at most
)

// popItem is one entry of the popup.
type popItem struct {
	label string // what the list shows
	desc  string // one line after it ("" for none)
	value string // what replaces the word ("/model ", "@src/", "src/main.go")
	dir   bool   // a directory: completion goes on inside it
}

// popup is the open completion list.
type popup struct {
	kind   popupKind
	word   string // the text before the cursor it replaces
	items  []popItem
	cursor int
}

// filesMsg brings the files an @ word matches.
type filesMsg struct {
	req     int
	word    string
	matches []fuzzy.Match
}

// popupKey handles a key while the popup is open; false leaves the key to
// the editor (and the popup follows the edit).
func (m *model) popupKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	p := m.livePopup()
	if p == nil {
		return nil, false
	}
	switch k.String() {
	case "up":
		p.cursor = (p.cursor + len(p.items) - 1) % len(p.items)
		return nil, true
	case "down":
		p.cursor = (p.cursor + 1) % len(p.items)
		return nil, true
	case "esc":
		m.pop = nil
		return nil, true
	case "tab":
		return m.takePopup(), true
	case "enter":
		if p.kind == popupCommand {
			m.takePopup()
			m.pop = nil
			return nil, false // the command is sent as typed now
		}
		return m.takePopup(), true
	}
	return nil, false
}

// livePopup is the open popup, nil when none is open or the text no
// longer ends with its word (the editor was cleared or changed by a key
// that does not follow edits); such a popup is closed.
func (m *model) livePopup() *popup {
	if m.pop != nil && (len(m.pop.items) == 0 || !strings.HasSuffix(m.ed.beforeCursor(), m.pop.word)) {
		m.pop = nil
	}
	return m.pop
}

// takePopup puts the chosen entry in place of the word; completing a
// directory keeps the popup going inside it.
func (m *model) takePopup() tea.Cmd {
	p := m.pop
	m.pop = nil
	it := p.items[p.cursor]
	m.ed.replaceBeforeCursor(p.word, it.value)
	switch {
	case it.dir && p.kind == popupPath:
		m.showPaths(pathWord(m.ed.beforeCursor()), false)
	case it.dir:
		return m.followEdit()
	}
	return nil
}

// followEdit recomputes the popup after the text changed.
func (m *model) followEdit() tea.Cmd {
	before := m.ed.beforeCursor()
	if m.ed.ta.Line() == 0 && strings.HasPrefix(before, "/") && !strings.ContainsAny(before, " \t") {
		m.showCommands(before)
		return nil
	}
	if m.ed.ta.Line() == 0 && strings.HasPrefix(before, "/") && m.showArgs(before) {
		return nil
	}
	if word, ok := atWord(before); ok {
		return m.findFiles(word)
	}
	if m.pop != nil && m.pop.kind == popupPath {
		if word := pathWord(before); word != "" {
			m.showPaths(word, false)
			return nil
		}
	}
	m.pop = nil
	return nil
}

// complete is Tab without an open popup: it opens the list for the word
// before the cursor, or completes it at once when one entry fits.
func (m *model) complete() (tea.Cmd, bool) {
	before := m.ed.beforeCursor()
	if m.ed.ta.Line() == 0 && strings.HasPrefix(before, "/") && !strings.ContainsAny(before, " \t") {
		m.showCommands(before)
		if m.pop != nil && len(m.pop.items) == 1 {
			return m.takePopup(), true
		}
		return nil, m.pop != nil
	}
	if word, ok := atWord(before); ok {
		return m.findFiles(word), true
	}
	word := pathWord(before)
	if word == "" {
		return nil, false
	}
	m.showPaths(word, true)
	return nil, true
}

// showCommands opens (or narrows) the list of commands matching "/query":
// the built-in ones, the extensions', skills and prompt templates.
func (m *model) showCommands(word string) {
	query := strings.ToLower(word[1:])
	type cand struct {
		item popItem
		rank int
	}
	var cands []cand
	add := func(name, desc string) {
		if r := commandRank(query, strings.ToLower(name)); r >= 0 {
			cands = append(cands, cand{popItem{label: name, desc: desc, value: "/" + name + " "}, r})
		}
	}
	for _, c := range commands {
		add(c.name, c.help)
	}
	for _, alias := range sortedKeys(commandAliases) {
		add(alias, "/"+commandAliases[alias]+": "+commandHelp(commandAliases[alias]))
	}
	for _, c := range m.extCommands() {
		add(c.Name, clean(c.Description))
	}
	for _, n := range m.promptCommandNames() {
		what := "send the prompt template"
		if strings.HasPrefix(n, "skill:") {
			what = "send the skill to the model"
		}
		add(n, what)
	}
	if len(cands) == 0 {
		m.pop = nil
		return
	}
	// Stable by rank: exact, prefix, substring, then letters in order.
	var items []popItem
	for r := 0; r <= 3; r++ {
		for _, c := range cands {
			if c.rank == r {
				items = append(items, c.item)
			}
		}
	}
	m.setPopup(popupCommand, word, items)
}

// commandHelp is the description of the built-in command name.
func commandHelp(name string) string {
	for _, c := range commands {
		if c.name == name {
			return c.help
		}
	}
	return ""
}

// commandRank ranks how name matches query: 0 exact, 1 prefix, 2
// substring, 3 its letters in order, -1 no match.
func commandRank(query, name string) int {
	switch {
	case query == name:
		return 0
	case strings.HasPrefix(name, query):
		return 1
	case strings.Contains(name, query):
		return 2
	}
	rest := name
	for _, r := range query {
		i := strings.IndexRune(rest, r)
		if i < 0 {
			return -1
		}
		rest = rest[i+len(string(r)):]
	}
	return 3
}

// setPopup shows items for word, the first one highlighted.
func (m *model) setPopup(kind popupKind, word string, items []popItem) {
	m.pop = &popup{kind: kind, word: word, items: items}
}

// findFiles asks for the files an "@query" word matches; the answer comes
// back as a filesMsg.
func (m *model) findFiles(word string) tea.Cmd {
	m.popReq++
	req, ctx, cwd, scan := m.popReq, m.ctx, m.opts.Cwd, m.opts.ScanCache
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, popupFileTimeout)
		defer cancel()
		res, err := fuzzy.Find(ctx, cwd, fuzzy.Options{Query: word[1:], Gitignore: true, Hidden: true, Cache: true, MaxResults: popupFileResults, Scanner: scan})
		if err != nil {
			return errMsg{fmt.Errorf("find files for %s: %w", word, err)}
		}
		return filesMsg{req: req, word: word, matches: res.Matches}
	}
}

// pickFile shows the files found for an @ word, unless the text moved on.
func (m *model) pickFile(msg filesMsg) {
	if msg.req != m.popReq {
		return
	}
	if word, ok := atWord(m.ed.beforeCursor()); !ok || word != msg.word {
		return
	}
	var items []popItem
	for _, f := range msg.matches {
		p := f.Path
		if f.IsDir {
			p += "/"
		}
		it := popItem{label: clean(p), value: "@" + quotePath(p) + " ", dir: f.IsDir}
		if f.IsDir {
			it.value = "@" + quotePath(p)
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		m.pop = nil
		return
	}
	m.setPopup(popupFile, msg.word, items)
}

// quotePath puts a path with a space in double quotes, as @"my file.txt".
func quotePath(p string) string {
	if strings.ContainsAny(p, " \t") {
		return `"` + p + `"`
	}
	return p
}

// atWord returns the "@…" word that ends the text, when it starts a word.
func atWord(before string) (string, bool) {
	word := lastWord(before)
	return word, strings.HasPrefix(word, "@") && !strings.HasPrefix(word, `@"`)
}

// lastWord is the text after the last blank (or quote or =) of before.
func lastWord(before string) string {
	return before[strings.LastIndexAny(before, " \t\n\"'=")+1:]
}

// popupView draws the popup: one row an entry, the highlighted one marked,
// and (i/n) when the list is longer than the rows shown.
func (m *model) popupView() string {
	p := m.livePopup()
	if p == nil {
		return ""
	}
	rows := m.popupRows()
	start := max(0, min(p.cursor-rows/2, len(p.items)-rows))
	end := min(start+rows, len(p.items))
	var lines []string
	for i := start; i < end; i++ {
		lines = append(lines, m.popupRow(p.items[i], i == p.cursor))
	}
	if start > 0 || end < len(p.items) {
		lines = append(lines, m.th.dim.Render(fmt.Sprintf("  (%d/%d)", p.cursor+1, len(p.items))))
	}
	return strings.Join(lines, "\n")
}

// popupRow draws one entry: the name, then its description when the
// window has room for both.
func (m *model) popupRow(it popItem, selected bool) string {
	prefix := "  "
	if selected {
		prefix = "❯ "
	}
	width := max(10, m.width-1)
	name := ansi.Truncate(it.label, max(1, width-2), "")
	line := prefix + name
	if it.desc != "" && width > 40 {
		col := min(popupNameColumn, width-6)
		name = ansi.Truncate(it.label, max(1, col-2), "")
		pad := max(1, col-ansi.StringWidth(name))
		if room := width - 2 - ansi.StringWidth(name) - pad; room > 10 {
			desc := ansi.Truncate(oneLine(clean(it.desc), 1000), room, "")
			if selected {
				return m.th.accent.Render(prefix + name + strings.Repeat(" ", pad) + desc)
			}
			return prefix + name + m.th.dim.Render(strings.Repeat(" ", pad)+desc)
		}
		line = prefix + name
	}
	if selected {
		return m.th.accent.Render(line)
	}
	return line
}

// popupRows is how many entries the popup shows: the
// autocompleteMaxVisible setting (3 to 20), and no more than a third of
// the window's height, so that the live area never outgrows the window.
func (m *model) popupRows() int {
	n := popupDefaultVisible
	if cfg := m.s.Config(); cfg != nil && cfg.Settings != nil && cfg.Settings.IsSet("autocompleteMaxVisible") {
		n = int(cfg.Settings.Float("autocompleteMaxVisible"))
	}
	return max(3, min(20, n, m.height/3))
}
