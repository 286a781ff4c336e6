package websearch

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// printable is s made safe for a terminal on one line: escape sequences
// are removed (a search result must not recolour, retitle or move the
// cursor of the terminal it is printed on), tabs and line breaks become
// spaces, and other C0 and C1 control characters and DEL are dropped, as
// is invalid UTF-8.
func printable(s string) string {
	if !strings.ContainsFunc(s, isControl) && strings.ToValidUTF8(s, "") == s {
		return s
	}
	s = ansi.Strip(strings.ToValidUTF8(s, ""))
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case isControl(r):
			return -1
		}
		return r
	}, s)
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }
