package tui

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// commandChoices are the fixed words some commands take as their
// argument, offered by the popup once the command's name is followed by a
// space.
var commandChoices = map[string][]string{
	"fast":    {"on", "off", "status"},
	"copy":    {"last", "code", "all", "cmd"},
	"session": {"info", "delete"},
	"browser": {"headless", "visible"},
	"ssh":     {"add", "list", "remove", "help"},
}

// showArgs opens the list of a command's arguments for "/name arg"
// (before the cursor): its fixed words, the thinking levels, or the
// models with credentials; false when the command takes no such
// argument.
func (m *model) showArgs(before string) bool {
	name, arg, ok := strings.Cut(before[1:], " ")
	if !ok || strings.ContainsAny(arg, " \t") {
		return false
	}
	if alias, ok := commandAliases[name]; ok {
		name = alias
	}
	var choices []string
	switch name {
	case "thinking":
		for _, l := range ai.ThinkingLevels {
			choices = append(choices, string(l))
		}
	case "model":
		for _, md := range m.s.Model().Available() {
			choices = append(choices, md.Provider+"/"+md.ID)
		}
	default:
		choices = commandChoices[name]
	}
	if len(choices) == 0 {
		return false
	}
	query := strings.ToLower(arg)
	var items []popItem
	for r := 0; r <= 3; r++ {
		for _, c := range choices {
			if commandRank(query, strings.ToLower(c)) == r {
				items = append(items, popItem{label: c, value: c})
			}
		}
	}
	if len(items) == 0 || (len(items) == 1 && items[0].value == arg) {
		m.pop = nil
		return true
	}
	m.setPopup(popupCommand, arg, items)
	return true
}
