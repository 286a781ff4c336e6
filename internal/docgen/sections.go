package docgen

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/rpc"
	"github.com/gopi-agent/gopi/core/modes/tui"
)

// Flag is one command-line flag as its command's help shows it.
type Flag struct {
	Short string // one letter, or ""
	Long  string // the name without dashes
	Value string // the value's name ("N", "GLOB"), "" for a switch
	Usage string // the help text
}

// Command is one command's flags: Path is the words after gopi ("grep",
// "ast run"; "" for the agent itself).
type Command struct {
	Path  string
	Flags []Flag
}

// SectionName is the generated section holding a command's flag table:
// "flags:gopi", "flags:grep", "flags:ast-run".
func (c Command) SectionName() string {
	if c.Path == "" {
		return "flags:gopi"
	}
	return "flags:" + strings.ReplaceAll(c.Path, " ", "-")
}

// Sections returns every generated section by name: one flag table per
// command that has flags, then "settings", "slash-commands", "hotkeys" and
// "rpc-commands".
func Sections(cmds []Command) map[string]string {
	out := map[string]string{
		"settings":       Settings(),
		"slash-commands": SlashCommands(),
		"hotkeys":        Hotkeys(),
		"rpc-commands":   RPCCommands(),
	}
	for _, c := range cmds {
		if len(c.Flags) == 0 {
			continue // a flag added later makes the section, which Sync then asks a place for
		}
		out[c.SectionName()] = Flags(c)
	}
	return out
}

// Flags renders a command's flags as a table, in the order its help
// lists them.
func Flags(c Command) string {
	if len(c.Flags) == 0 {
		return "No flags.\n"
	}
	rows := make([][]string, len(c.Flags))
	for i, f := range c.Flags {
		long := "--" + f.Long
		if f.Value != "" {
			long += " " + f.Value
		}
		name := Code(long)
		if f.Short != "" {
			name = Code("-"+f.Short) + ", " + name
		}
		rows[i] = []string{name, Text(f.Usage)}
	}
	return Table([]string{"flag", "meaning"}, rows)
}

// Settings renders every setting core/config knows, in schema order: its
// key, type and default.
func Settings() string {
	var rows [][]string
	for _, key := range config.Keys() {
		d, _ := config.Lookup(key)
		rows = append(rows, []string{Code(d.Key), kindText(d), defaultText(d.Default)})
	}
	return Table([]string{"setting", "type", "default"}, rows)
}

// kindText names a setting's type, listing an enum's values.
func kindText(d config.Def) string {
	switch d.Kind {
	case config.KindBool:
		return "boolean"
	case config.KindString:
		return "string"
	case config.KindNumber:
		return "number"
	case config.KindEnum:
		vals := make([]string, len(d.Values))
		for i, v := range d.Values {
			vals[i] = Code(v)
		}
		return "one of " + strings.Join(vals, ", ")
	case config.KindArray:
		return "list"
	case config.KindRecord:
		return "map"
	}
	return Text(d.Kind.String())
}

// defaultText renders a default value as the JSON a settings file would
// hold; nil (no default) is "unset".
func defaultText(v any) string {
	if v == nil {
		return "unset"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Text(fmt.Sprint(v))
	}
	return Code(string(b))
}

// SlashCommands renders the interactive mode's built-in slash commands in
// /help order.
func SlashCommands() string {
	var rows [][]string
	for _, c := range tui.CommandDocs() {
		cmd := "/" + c.Name
		if c.Args != "" {
			cmd += " " + c.Args
		}
		rows = append(rows, []string{Code(cmd), Text(c.Help)})
	}
	return Table([]string{"command", "what it does"}, rows)
}

// Hotkeys renders the interactive mode's key bindings as /hotkeys lists
// them.
func Hotkeys() string {
	var rows [][]string
	for _, k := range tui.HotkeyDocs() {
		rows = append(rows, []string{Text(k[0]), Text(k[1])})
	}
	return Table([]string{"key", "what it does"}, rows)
}

// RPCCommands renders the command types the RPC server accepts, sorted,
// as one line of inline code spans.
func RPCCommands() string {
	names := rpc.CommandNames()
	for i, n := range names {
		names[i] = Code(n)
	}
	return strings.Join(names, ", ") + "\n"
}
