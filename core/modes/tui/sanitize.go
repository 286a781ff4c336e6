package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// clean makes text from the model, tools and files safe to print: escape
// sequences and other control characters are removed (a model or a file
// must not retitle the window, write the clipboard or move the cursor), a
// carriage return keeps what follows it on its line, as a terminal would
// show it, and invalid UTF-8 becomes U+FFFD. Text without any of these
// is returned as it is.
func clean(s string) string {
	if !needsCleaning(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = ansi.Strip(strings.ReplaceAll(s, "\r\n", "\n"))
	var b strings.Builder
	b.Grow(len(s))
	for line := range strings.SplitAfterSeq(s, "\n") {
		if i := strings.LastIndexByte(strings.TrimSuffix(line, "\n"), '\r'); i >= 0 {
			line = line[i+1:]
		}
		for _, r := range line {
			if r == '\n' || r == '\t' || !(r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// needsCleaning reports whether s holds a control character (other than
// newline and tab), a C1 control or invalid UTF-8.
func needsCleaning(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r >= 0x80 && r < 0xa0 {
			return true
		}
		i += n
	}
	return false
}
