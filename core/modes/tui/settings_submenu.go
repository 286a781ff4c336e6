package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A setting with a list of options opens that list in the editor's place
// (omp's submenu): Up and Down move, Enter writes the highlighted value
// and goes back to the settings, Esc goes back without a change. A string
// setting opens a one-line text field the same way: Enter writes what it
// holds, an empty field unsets the setting (its default applies again).

// settingSub is an open submenu: the list of an entry's options, or a
// text field when options is nil.
type settingSub struct {
	entry   settingEntry
	options []settingOption
	cursor  int
	current int // the option holding the value now, -1 when none does
	input   textinput.Model
}

// openSub opens the submenu of e, whose value is cur.
func (d *settingsDash) openSub(e settingEntry, cur any) {
	d.notice = ""
	if e.options == nil {
		in := newSteadyInput("> ", "unset")
		if s, ok := cur.(string); ok {
			in.SetValue(s)
			in.CursorEnd()
		}
		d.sub = &settingSub{entry: e, current: -1, input: in}
		return
	}
	at := e.optionOf(cur)
	d.sub = &settingSub{entry: e, options: e.options, cursor: max(0, at), current: at}
}

// subKey handles a key while a submenu is open.
func (d *settingsDash) subKey(k tea.KeyPressMsg) tea.Cmd {
	sub := d.sub
	switch k.String() {
	case "esc", "ctrl+c":
		d.sub = nil
		return nil
	case "enter":
		d.sub = nil
		if sub.options != nil {
			return d.set(sub.entry, sub.options[sub.cursor].value)
		}
		if v := strings.TrimSpace(sub.input.Value()); v != "" {
			return d.set(sub.entry, v)
		}
		return d.set(sub.entry, nil)
	}
	if sub.options == nil {
		var cmd tea.Cmd
		sub.input, cmd = sub.input.Update(k)
		return cmd
	}
	switch k.String() {
	case "up", "k":
		sub.cursor = (sub.cursor + len(sub.options) - 1) % len(sub.options)
	case "down", "j":
		sub.cursor = (sub.cursor + 1) % len(sub.options)
	case "home":
		sub.cursor = 0
	case "end":
		sub.cursor = len(sub.options) - 1
	}
	return nil
}

// subView draws the open submenu within width and height.
func (d *settingsDash) subView(th theme, width, height int) string {
	sub := d.sub
	e := sub.entry
	body := []string{th.accent.Render(e.label)}
	for _, l := range wrapLines(e.desc, width-3) {
		body = append(body, th.dim.Render(l))
	}
	body = append(body, "")
	hint := "enter save · esc back · an empty field unsets it"
	if sub.options == nil {
		sub.input.SetWidth(max(10, width-6))
		body = append(body, sub.input.View())
	} else {
		hint = "↑↓ move · enter choose · esc back"
		labelW := 0
		for _, o := range sub.options {
			labelW = max(labelW, ansi.StringWidth(o.label))
		}
		rows := max(3, min(len(sub.options), height-10-len(body)))
		start := max(0, min(sub.cursor-rows/2, len(sub.options)-rows))
		end := min(start+rows, len(sub.options))
		for i := start; i < end; i++ {
			o := sub.options[i]
			mark := "  "
			if i == sub.current {
				mark = "• "
			}
			line := mark + fmt.Sprintf("%-*s", labelW, o.label)
			if o.desc != "" {
				line += "  " + th.dim.Render(o.desc)
			}
			if i == sub.cursor {
				body = append(body, th.accent.Render("❯ "+ansi.Strip(line)))
			} else {
				body = append(body, "  "+line)
			}
		}
		if start > 0 || end < len(sub.options) {
			body = append(body, th.dim.Render(fmt.Sprintf("  (%d/%d)", sub.cursor+1, len(sub.options))))
		}
	}
	f := dashFrame{title: "Settings", tabs: settingTabBar(), active: d.tab, body: body, hint: hint}
	return strings.TrimRight(f.render(th, width, height), "\n")
}

// optionOf is the index of the option holding v, -1 when none does.
func (e settingEntry) optionOf(v any) int {
	return slices.IndexFunc(e.options, func(o settingOption) bool { return showValue(o.value) == showValue(v) })
}

// show writes a value as the settings list shows it: a number as the
// label of the option holding it ("5 items", "Default" for -1), anything
// else as itself (an enum's value, as omp shows it).
func (e settingEntry) show(v any) string {
	if _, isString := v.(string); v == nil || isString {
		return showValue(v)
	}
	if i := e.optionOf(v); i >= 0 {
		return e.options[i].label
	}
	return showValue(v)
}
