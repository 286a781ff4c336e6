package main

// palette holds the escape sequences used for colored output; the zero
// value prints plain text. The sequences are ripgrep's own, byte for byte
// (each starts with a reset, as ripgrep writes them), so that colored output
// piped to another tool reads the same; column is its "no color" style.
type palette struct {
	path, line, column, match, reset string
}

// colorPalette chooses colors from --color (auto, always, never): auto
// colors only a terminal and honours NO_COLOR and TERM=dumb, looked up
// with getenv (the configuration's environment).
func colorPalette(mode string, terminal bool, getenv func(string) string) (palette, error) {
	switch mode {
	case "", "auto":
		if !terminal || getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
			return palette{}, nil
		}
	case "always":
	case "never":
		return palette{}, nil
	default:
		return palette{}, usagef("--color must be auto, always or never, got %q", mode)
	}
	return palette{path: "\x1b[0m\x1b[35m", line: "\x1b[0m\x1b[32m", column: "\x1b[0m", match: "\x1b[0m\x1b[1m\x1b[31m", reset: "\x1b[0m"}, nil
}
