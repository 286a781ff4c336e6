package cliflags

import "github.com/spf13/pflag"

// Command is one entry of a program's command list, for the completion
// and man writers.
type Command struct {
	// Path is the command as typed after the program's name: nil for
	// the program itself, {"grep"}, or {"ast", "run"} for a subcommand.
	Path []string
	// Flags is the flag set the command parses with; nil marks a group
	// of subcommands ({"ast"}), which has no flags of its own.
	Flags *pflag.FlagSet
	// Summary is the one-line description.
	Summary string
	// Args are the words a command takes as its argument instead of
	// files ("bash zsh fish"); the completions offer them.
	Args []string
}

// Program is what the completion scripts and the man page are written
// from.
type Program struct {
	// Name is the program's name as typed ("gopi").
	Name string
	// Commands lists the program itself first (Path nil), then every
	// command in the order the help lists them; a group's entry comes
	// before its subcommands.
	Commands []Command
}

// Words lists a flag set's flags as typed: --long and -s.
func Words(fs *pflag.FlagSet) []string {
	var w []string
	fs.VisitAll(func(f *pflag.Flag) {
		w = append(w, "--"+f.Name)
		if f.Shorthand != "" {
			w = append(w, "-"+f.Shorthand)
		}
	})
	return w
}

// topLevel returns the names of the first-level commands, in order.
func (p Program) topLevel() []string {
	var names []string
	for _, c := range p.Commands {
		if len(c.Path) == 1 {
			names = append(names, c.Path[0])
		}
	}
	return names
}

// groups returns each group's name with its subcommands, in order.
func (p Program) groups() (names []string, subs map[string][]string) {
	subs = map[string][]string{}
	for _, c := range p.Commands {
		if len(c.Path) != 2 {
			continue
		}
		if _, ok := subs[c.Path[0]]; !ok {
			names = append(names, c.Path[0])
		}
		subs[c.Path[0]] = append(subs[c.Path[0]], c.Path[1])
	}
	return names, subs
}
