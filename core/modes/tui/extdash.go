package tui

import (
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/config"
)

// The Extension Control Center (/extensions, /status): every extension,
// skill, rule, MCP server, command, prompt and context file of the
// session under source tabs. Space or Enter turns the selected entry off
// or on (disabledExtensions) or, on a source's tab, the whole source
// (its master switch, disabledProviders); both are written to the global
// settings file, as omp writes them.

// extRow is one line of the list: a source's master switch, a kind's
// heading, or an entry.
type extRow struct {
	master string // provider id of the master switch
	kind   string // heading of this kind
	item   *extItem
}

// extDash is the open Extension Control Center.
type extDash struct {
	loading      bool
	items        []*extItem
	tabs         []dashTab
	active       int
	query        string
	rows         []extRow
	cursor       int
	scroll       int
	disabled     []string // disabledExtensions as shown
	providersOff []string // disabledProviders as shown
	saveItems    *settingSaver
	saveSources  *settingSaver
}

// extItemsMsg brings the inventory read for an open centre.
type extItemsMsg struct {
	d     *extDash
	items []*extItem
}

// cmdExtensions opens the Extension Control Center; the inventory is read
// by a command and shown when it arrives.
func (m *model) cmdExtensions(string) tea.Cmd {
	cfg := m.s.Config()
	d := &extDash{loading: true,
		disabled: cfg.Settings.Strings("disabledExtensions"), providersOff: cfg.Settings.Strings("disabledProviders")}
	d.saveItems = &settingSaver{settings: cfg.Settings, key: "disabledExtensions", value: func() any { return stringsValue(d.disabled) }}
	d.saveSources = &settingSaver{settings: cfg.Settings, key: "disabledProviders", value: func() any { return stringsValue(d.providersOff) }}
	d.rebuild()
	m.dash = d
	src := extSources{cfg: cfg, cwd: m.opts.Cwd, extensions: m.opts.Extensions}
	src.mcp = m.s.Resources().MCPStatus()
	return func() tea.Msg { return extItemsMsg{d: d, items: loadExtItems(src)} }
}

// loaded shows the inventory read.
func (d *extDash) loaded(items []*extItem) {
	d.loading, d.items = false, items
	d.rebuild()
	d.cursor = 0
	for i, r := range d.rows {
		if r.item != nil {
			d.cursor = i // the first entry, not its heading
			break
		}
	}
}

// rebuild recomputes states, tabs and rows after a change.
func (d *extDash) rebuild() {
	for _, it := range d.items {
		it.state = extState(it, d.disabled, d.providersOff)
		it.reason = ""
		if it.state == stateDisabled {
			it.reason = "provider disabled"
			if slices.Contains(d.disabled, it.id()) {
				it.reason = "manually disabled"
			}
		}
	}
	current := ""
	if d.active < len(d.tabs) {
		current = d.tabs[d.active].id
	}
	d.tabs = extTabs(d.items, d.providersOff)
	d.active = 0
	for i, t := range d.tabs {
		if t.id == current {
			d.active = i
		}
	}
	d.rows = d.buildRows()
	d.clamp()
}

// extTabs returns ALL, then the sources with entries by count, then the
// turned-off ones; gopi's own (native) has no tab of its own.
func extTabs(items []*extItem, off []string) []dashTab {
	counts := map[string]int{}
	for _, it := range items {
		counts[it.provider]++
	}
	var tabs []dashTab
	for _, p := range extProviders {
		isOff := slices.Contains(off, p.id)
		if p.id == config.ProviderNative || counts[p.id] == 0 && !isOff {
			continue
		}
		tabs = append(tabs, dashTab{id: p.id, label: p.name, count: counts[p.id], off: isOff})
	}
	sort.SliceStable(tabs, func(i, j int) bool {
		if tabs[i].off != tabs[j].off {
			return !tabs[i].off
		}
		return tabs[i].count > tabs[j].count
	})
	return append([]dashTab{{id: "all", label: "ALL", count: len(items)}}, tabs...)
}

// provider is the source of the tab shown, "" on ALL.
func (d *extDash) provider() string {
	if d.active == 0 || d.active >= len(d.tabs) {
		return ""
	}
	return d.tabs[d.active].id
}

// shown returns the entries of the tab the search keeps.
func (d *extDash) shown() []*extItem {
	p := d.provider()
	words := strings.Fields(strings.ToLower(d.query))
	var out []*extItem
	for _, it := range d.items {
		if p != "" && it.provider != p {
			continue
		}
		text := strings.ToLower(strings.Join([]string{it.name, it.displayName(), it.description, it.trigger, providerName(it.provider), it.kind}, " "))
		if !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(text, w) }) {
			out = append(out, it)
		}
	}
	return out
}

// buildRows lays out the list: flat while searching; a source's tab
// starts with its master switch; ALL groups the entries by kind.
func (d *extDash) buildRows() []extRow {
	items := d.shown()
	var rows []extRow
	if d.query != "" {
		for _, it := range items {
			rows = append(rows, extRow{item: it})
		}
		return rows
	}
	if p := d.provider(); p != "" {
		rows = append(rows, extRow{master: p})
		for _, it := range items {
			rows = append(rows, extRow{item: it})
		}
		return rows
	}
	for _, k := range extKinds {
		start := len(rows)
		for _, it := range items {
			if it.kind == k.id {
				if len(rows) == start {
					rows = append(rows, extRow{kind: k.id})
				}
				rows = append(rows, extRow{item: it})
			}
		}
	}
	return rows
}

func (d *extDash) clamp() {
	d.cursor = max(0, min(d.cursor, len(d.rows)-1))
}

// paste adds pasted text to the search.
func (d *extDash) paste(text string) {
	d.query += strings.Join(strings.Fields(text), " ")
	d.rows, d.cursor, d.scroll = d.buildRows(), 0, 0
}

// key handles a key press.
func (d *extDash) key(k tea.KeyPressMsg) (bool, tea.Cmd) {
	switch k.String() {
	case "ctrl+c":
		return true, nil
	case "esc":
		if d.query != "" {
			d.query = ""
			d.rows, d.cursor, d.scroll = d.buildRows(), 0, 0
			return false, nil
		}
		return true, nil
	case "tab", "shift+tab":
		if len(d.tabs) > 0 {
			step := 1
			if k.String() == "shift+tab" {
				step = len(d.tabs) - 1
			}
			d.active = (d.active + step) % len(d.tabs)
			d.rows, d.cursor, d.scroll = d.buildRows(), 0, 0
		}
	case "up", "k", "ctrl+p":
		d.cursor = max(0, d.cursor-1)
	case "down", "j", "ctrl+n":
		d.cursor = min(max(0, len(d.rows)-1), d.cursor+1)
	case "space", "enter":
		return false, d.toggle()
	case "backspace":
		if d.query != "" {
			r := []rune(d.query)
			d.query = string(r[:len(r)-1])
			d.rows, d.cursor, d.scroll = d.buildRows(), 0, 0
		}
	default:
		if c, ok := searchKey(k); ok {
			d.query += c
			d.rows, d.cursor, d.scroll = d.buildRows(), 0, 0
		}
	}
	return false, nil
}

// toggle turns the selected entry, or the source of the master switch,
// off or on, and saves the setting. An entry of a source turned off
// stays as it is.
func (d *extDash) toggle() tea.Cmd {
	if d.cursor >= len(d.rows) {
		return nil
	}
	r := d.rows[d.cursor]
	switch {
	case r.master != "":
		if i := slices.Index(d.providersOff, r.master); i >= 0 {
			d.providersOff = slices.Delete(slices.Clone(d.providersOff), i, i+1)
		} else {
			d.providersOff = append(slices.Clone(d.providersOff), r.master)
		}
		d.rebuild()
		return d.saveSources.save()
	case r.item != nil:
		if p := d.provider(); p != "" && slices.Contains(d.providersOff, p) {
			return nil
		}
		id := r.item.id()
		if i := slices.Index(d.disabled, id); i >= 0 {
			d.disabled = slices.Delete(slices.Clone(d.disabled), i, i+1)
		} else if r.item.state != stateDisabled {
			d.disabled = append(slices.Clone(d.disabled), id)
		}
		d.rebuild()
		return d.saveItems.save()
	}
	return nil
}

// selected returns the entry under the cursor, nil on a heading or a
// master switch.
func (d *extDash) selected() *extItem {
	if d.cursor < len(d.rows) {
		return d.rows[d.cursor].item
	}
	return nil
}

// view draws the centre.
func (d *extDash) view(th theme, width, height int) string {
	f := dashFrame{title: "Extension Control Center", tabs: d.tabs, active: d.active,
		hint: "↑/↓ j/k: move  Space: toggle  Tab: next source  type: search  Esc: close"}
	if d.loading {
		f.body = []string{th.dim.Render("Loading extensions…")}
		return f.render(th, width, height)
	}
	f.columns = func(lines, lw, rw int) ([]string, []string) {
		return d.listLines(th, lines, lw), d.inspector(th, rw)
	}
	return f.render(th, width, height)
}

// listLines draws the search field and the rows that fit in lines.
func (d *extDash) listLines(th theme, lines, width int) []string {
	out := []string{searchLine(th, d.query), ""}
	if len(d.rows) == 0 {
		return append(out, th.dim.Render("  No extensions found for this source."))
	}
	visible := max(1, lines-2)
	if len(d.rows) > visible {
		visible = max(1, visible-1) // room for the position line
	}
	if d.cursor < d.scroll {
		d.scroll = d.cursor
	}
	if d.cursor >= d.scroll+visible {
		d.scroll = d.cursor - visible + 1
	}
	d.scroll = max(0, min(d.scroll, len(d.rows)-visible))
	masterOff := d.provider() != "" && slices.Contains(d.providersOff, d.provider())
	for i := d.scroll; i < len(d.rows) && i < d.scroll+visible; i++ {
		out = append(out, d.rowLine(th, d.rows[i], i == d.cursor, masterOff, width))
	}
	if len(d.rows) > visible {
		out = append(out, th.dim.Render("  ("+itoa(d.cursor+1)+"/"+itoa(len(d.rows))+")"))
	}
	return out
}

// rowLine draws one row of the list.
func (d *extDash) rowLine(th theme, r extRow, selected, masterOff bool, width int) string {
	var line string
	switch {
	case r.master != "":
		box := "☑"
		if slices.Contains(d.providersOff, r.master) {
			box = "☐"
		}
		line = box + " Enable " + providerName(r.master) + "  (master switch)"
	case r.kind != "":
		n := 0
		for _, x := range d.rows {
			if x.item != nil && x.item.kind == r.kind {
				n++
			}
		}
		line = kindTitle(r.kind) + " (" + itoa(n) + ")"
		if !selected {
			return th.dim.Render(line)
		}
	default:
		it := r.item
		mark := markOn
		switch {
		case masterOff || it.state == stateDisabled:
			mark = markOff
		case it.state == stateShadowed:
			mark = markShadowed
		}
		nameW := max(8, min(24, width-16))
		name := oneLine(clean(it.displayName()), nameW)
		line = "   " + mark + " " + name + strings.Repeat(" ", max(0, nameW-len([]rune(name))))
		if it.trigger != "" && width-len([]rune(line))-2 > 5 {
			line += "  " + oneLine(clean(it.trigger), width-len([]rune(line))-2)
		}
		if !selected && (masterOff || it.state == stateDisabled) {
			return th.dim.Render(line)
		}
	}
	if selected {
		return th.selected.Render(line)
	}
	return line
}

// kindTitle returns a kind's group title.
func kindTitle(kind string) string {
	for _, k := range extKinds {
		if k.id == kind {
			return k.title
		}
	}
	return kind
}

// inspector draws the details of the selected entry.
func (d *extDash) inspector(th theme, width int) []string {
	it := d.selected()
	if it == nil {
		return []string{th.dim.Render("Select an extension"), th.dim.Render("to view details")}
	}
	out := []string{th.accent.Render(clean(it.displayName())), "", th.dim.Render("Type: ") + it.kind, ""}
	if desc := wrapLines(it.description, width-2); len(desc) > 0 {
		out = append(out, desc...)
		out = append(out, "")
	}
	level := map[string]string{"user": "User", "project": "Project"}[it.level]
	if level == "" {
		level = "Native"
	}
	out = append(out, th.dim.Render("Origin:"), "  via "+providerName(it.provider)+" ("+level+")")
	if it.path != "" {
		out = append(out, th.dim.Render("  "+tailPath(clean(it.path), width-2)))
	}
	out = append(out, "", th.dim.Render("Status:"), "  "+d.status(th, it), "")
	switch {
	case it.previewTitle != "":
		out = append(out, th.dim.Render(it.previewTitle), th.dim.Render(strings.Repeat("─", max(1, min(width-2, 40)))))
		if len(it.preview) == 0 {
			out = append(out, th.dim.Render("  (empty)"))
		}
		out = append(out, it.preview...)
	case it.trigger != "":
		out = append(out, th.dim.Render("Trigger:"), th.dim.Render(strings.Repeat("─", max(1, min(width-2, 40)))), "  "+clean(it.trigger))
	}
	return out
}

// status draws an entry's state.
func (d *extDash) status(th theme, it *extItem) string {
	switch it.state {
	case stateDisabled:
		return th.dim.Render(markOff + " Disabled (" + it.reason + ")")
	case stateShadowed:
		return th.warn.Render(markShadowed + " Shadowed")
	}
	return th.ok.Render(markOn + " Active")
}

// tailPath writes a path with ~ for the home directory and, when it is
// longer than width, only its last three parts.
func tailPath(p string, width int) string {
	p = shortPath(p)
	if len([]rune(p)) > width {
		if parts := strings.Split(p, "/"); len(parts) > 3 {
			p = ".../" + strings.Join(parts[len(parts)-3:], "/")
		}
	}
	return p
}
