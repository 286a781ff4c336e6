package cliflags

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// Usage returns a flag's value name ("" for booleans and counts) and its
// usage text: the name set with ValueName and the usage as written, or
// what pflag.UnquoteUsage makes of a backquoted name.
func Usage(f *pflag.Flag) (name, usage string) {
	name, usage = pflag.UnquoteUsage(f)
	if v := f.Annotations[annotValue]; len(v) == 1 {
		name, usage = v[0], f.Usage
	}
	if t := f.Value.Type(); t == "bool" || t == "count" {
		name = ""
	}
	return name, usage
}

// Help renders a flag set for a command's --help: "-A, --after-context N"
// and the usage, the value name from Usage (pflag's own rendering shows
// "[=true|false]" on booleans).
func Help(fs *pflag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		left := "    "
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", "
		}
		left += "--" + f.Name
		name, usage := Usage(f)
		if name != "" {
			left += " " + name
		}
		fmt.Fprintf(&b, "  %-28s %s\n", left, usage)
	})
	return b.String()
}

// Table renders a flag set as an aligned table, the agent's --help
// style: "-p, --print", "--model MODEL" with the value name from names
// ("VALUE" when it has none) on every non-boolean flag, and a string
// flag's default after its usage.
func Table(fs *pflag.FlagSet, names map[string]string) string {
	type row struct{ left, help string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		left := "    "
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", "
		}
		left += "--" + f.Name
		if f.Value.Type() != "bool" {
			name := names[f.Name]
			if name == "" {
				name = "VALUE"
			}
			left += " " + name
		}
		help := f.Usage
		if f.DefValue != "" && f.Value.Type() == "string" {
			help += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		rows = append(rows, row{left, help})
		width = max(width, len(left))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.left, r.help)
	}
	return b.String()
}
