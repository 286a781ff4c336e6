package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
)

// The /settings editor takes the editor's place, as omp's tabbed settings
// menu does: the tabs of settingTabs on top (Tab and Shift+Tab, or Left
// and Right, switch), a list of settings with their values, the
// highlighted one's description below. Enter or Space changes the value
// as omp's editor does: a boolean toggles, an enum without a list moves to
// its next value, a setting with a list of options opens that list (a
// submenu: pick one, Esc goes back), a string opens a text field (an
// empty one unsets it); see settings_submenu.go. Each change is written to config.yml through core/config (the
// settingSaver keeps writes of one key in order) and, for the settings the
// running session holds (thinking level, queue modes, auto-compaction,
// retry), applied to it at once; the others take effect in the next
// session.

// settingsDash is the open /settings editor.
type settingsDash struct {
	m       *model
	tab     int
	cursor  int
	notice  string
	savers  map[string]*settingSaver
	pending map[string]any // values written, shown until the settings read them back
	sub     *settingSub    // the open submenu or text field, nil for the list
}

// cmdSettings opens the settings editor.
func (m *model) cmdSettings(string) tea.Cmd {
	if m.s.Config() == nil || m.s.Config().Settings == nil {
		return m.printSection(m.r.errorLine("No settings are loaded in this session: edit config.yml in the agent directory"))
	}
	m.dash = &settingsDash{m: m, savers: map[string]*settingSaver{}, pending: map[string]any{}}
	return nil
}

// key handles a key press; Esc closes the editor.
func (d *settingsDash) key(k tea.KeyPressMsg) (bool, tea.Cmd) {
	if d.sub != nil {
		return false, d.subKey(k)
	}
	entries := settingTabs[d.tab].entries
	switch k.String() {
	case "esc", "ctrl+c", "q":
		return true, nil
	case "tab", "right":
		d.tab, d.cursor, d.notice = (d.tab+1)%len(settingTabs), 0, ""
	case "shift+tab", "left":
		d.tab, d.cursor, d.notice = (d.tab+len(settingTabs)-1)%len(settingTabs), 0, ""
	case "up", "k":
		d.cursor = (d.cursor + len(entries) - 1) % len(entries)
	case "down", "j":
		d.cursor = (d.cursor + 1) % len(entries)
	case "enter", "space", " ":
		return false, d.change(entries[d.cursor])
	}
	return false, nil
}

// paste goes to an open text field.
func (d *settingsDash) paste(text string) {
	if d.sub != nil && d.sub.options == nil {
		d.sub.input.SetValue(d.sub.input.Value() + strings.Join(strings.Fields(text), " "))
		d.sub.input.CursorEnd()
	}
}

// value is a setting's value as the editor shows it: the one being
// written, else the settings' own (their default when unset).
func (d *settingsDash) value(key string) any {
	if sv := d.savers[key]; sv != nil && sv.running {
		return d.pending[key]
	}
	v, _ := d.m.s.Config().Settings.Get(key)
	return v
}

// overridden reports whether a value written to config.yml is not the
// one in force: a project file, the environment or a flag sets the key.
func (d *settingsDash) overridden(key string) bool {
	sv, want := d.savers[key], d.pending[key]
	if sv == nil || sv.running {
		return false
	}
	got, _ := d.m.s.Config().Settings.Get(key)
	return showValue(got) != showValue(want)
}

// change acts on Enter or Space over a setting: a list or a text field
// opens; a switch or an enum without a list moves to its next value.
func (d *settingsDash) change(e settingEntry) tea.Cmd {
	def, ok := config.Lookup(e.key)
	if !ok {
		return nil
	}
	if e.options != nil || def.Kind == config.KindString {
		d.openSub(e, d.value(e.key))
		return nil
	}
	next, ok := nextValue(def, d.value(e.key))
	if !ok {
		d.notice = e.label + " is changed in config.yml (it is not a switch or a list of choices)"
		return nil
	}
	return d.set(e, next)
}

// set saves a setting's new value (nil unsets it) and applies it.
func (d *settingsDash) set(e settingEntry, next any) tea.Cmd {
	d.pending[e.key] = next
	d.notice = e.label + ": " + e.show(next) + " (saved in config.yml)"
	if next == nil {
		d.notice = e.label + ": unset (saved in config.yml)"
	}
	s := d.savers[e.key]
	if s == nil {
		key := e.key
		s = &settingSaver{settings: d.m.s.Config().Settings, key: key, value: func() any { return d.pending[key] }}
		d.savers[key] = s
	}
	return tea.Batch(s.save(), d.m.applySetting(e.key, next))
}

// nextValue is the value after cur: a boolean's opposite, an enum's next
// value; false for a setting of another kind.
func nextValue(def config.Def, cur any) (any, bool) {
	switch {
	case def.Kind == config.KindBool:
		b, _ := cur.(bool)
		return !b, true
	case def.Kind == config.KindEnum && len(def.Values) > 0:
		s, _ := cur.(string)
		i := slices.Index(def.Values, s)
		return def.Values[(i+1)%len(def.Values)], true
	}
	return nil, false
}

// applySetting gives a changed setting to the running session where the
// session holds it; the rest take effect in the next session.
func (m *model) applySetting(key string, v any) tea.Cmd {
	s := m.s
	var apply func() error
	switch key {
	case "defaultThinkingLevel":
		apply = func() error { return s.Model().SetThinkingDefault(ai.ThinkingLevel(v.(string))) }
	case "steeringMode", "followUpMode":
		mode, err := agent.ParseQueueMode(v.(string))
		if err != nil {
			return nil
		}
		modes := agent.Modes{Steering: mode}
		if key == "followUpMode" {
			modes = agent.Modes{FollowUp: mode}
		}
		apply = func() error { s.Agent().SetModes(modes); return nil }
	case "interruptMode":
		mode, err := agent.ParseInterruptMode(v.(string))
		if err != nil {
			return nil
		}
		apply = func() error { s.Agent().SetModes(agent.Modes{Interrupt: mode}); return nil }
	case "compaction.enabled":
		apply = func() error { s.Compactor().SetAuto(v.(bool)); return nil }
	case "retry.enabled":
		apply = func() error { s.Turn().SetAutoRetry(v.(bool)); return nil }
	default:
		return nil
	}
	return func() tea.Msg {
		if err := apply(); err != nil {
			return errMsg{err}
		}
		return tea.BatchMsg{m.refreshStatus()}
	}
}

// settingTabBar is the editor's row of tabs.
func settingTabBar() []dashTab {
	tabs := make([]dashTab, len(settingTabs))
	for i, t := range settingTabs {
		tabs[i] = dashTab{id: t.label, label: t.label}
	}
	return tabs
}

// showValue writes a value as the list shows it.
func showValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "(unset)"
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// view draws the editor within width and height.
func (d *settingsDash) view(th theme, width, height int) string {
	if d.sub != nil {
		return d.subView(th, width, height)
	}
	entries := settingTabs[d.tab].entries
	labelW := 0
	for _, e := range entries {
		labelW = max(labelW, ansi.StringWidth(e.label))
	}
	rows := max(3, min(len(entries), height-12))
	start := max(0, min(d.cursor-rows/2, len(entries)-rows))
	end := min(start+rows, len(entries))
	var body []string
	for i := start; i < end; i++ {
		e := entries[i]
		line := fmt.Sprintf("%-*s  %s", labelW, e.label, e.show(d.value(e.key)))
		if d.overridden(e.key) {
			line += th.dim.Render("  (config.yml says " + e.show(d.pending[e.key]) + "; a project file, variable or flag wins)")
		}
		if i == d.cursor {
			body = append(body, th.accent.Render("❯ "+line))
		} else {
			body = append(body, "  "+line)
		}
	}
	if start > 0 || end < len(entries) {
		body = append(body, th.dim.Render(fmt.Sprintf("  (%d/%d)", d.cursor+1, len(entries))))
	}
	body = append(body, "")
	e := entries[d.cursor]
	for _, l := range wrapLines(e.desc, width-3) {
		body = append(body, "  "+th.dim.Render(l))
	}
	body = append(body, "  "+th.dim.Render(e.key))
	f := dashFrame{title: "Settings", tabs: settingTabBar(), active: d.tab, notice: d.notice, body: body,
		hint: "enter/space change · tab/shift+tab tabs · esc close (saved to config.yml)"}
	return strings.TrimRight(f.render(th, width, height), "\n")
}
