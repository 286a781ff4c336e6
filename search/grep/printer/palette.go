package printer

// Palette holds the escape sequences of coloured output; the zero value
// prints plain text.
type Palette struct {
	Path, Line, Column, Match, Reset string
}

// Ripgrep returns ripgrep's own colours, byte for byte (each sequence
// starts with a reset, as ripgrep writes them), so that coloured output
// piped to another tool reads the same; Column is its "no colour" style.
func Ripgrep() Palette {
	return Palette{Path: "\x1b[0m\x1b[35m", Line: "\x1b[0m\x1b[32m", Column: "\x1b[0m", Match: "\x1b[0m\x1b[1m\x1b[31m", Reset: "\x1b[0m"}
}
