package tui

// CommandDoc describes one built-in slash command for gopi's generated
// documentation (docs/interactive.md).
type CommandDoc struct {
	Name string // without the slash: "model"
	Args string // the arguments as /help shows them: "[query]", or ""
	Help string // what /help says it does
}

// CommandDocs lists the built-in slash commands in the order /help shows
// them, from the same table the interactive mode dispatches on.
func CommandDocs() []CommandDoc {
	out := make([]CommandDoc, len(commands))
	for i, c := range commands {
		out[i] = CommandDoc{Name: c.name, Args: c.args, Help: c.help}
	}
	return out
}

// HotkeyDocs lists the key bindings as /hotkeys shows them: each is the
// keys and what they do.
func HotkeyDocs() [][2]string { return append([][2]string(nil), hotkeys...) }
