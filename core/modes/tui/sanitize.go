package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// clean makes text from the model, tools and files safe to print: escape
// sequences and other control characters are removed (a model or a file
// must not retitle the window, write the clipboard or move the cursor), a
// carriage return makes what follows it overwrite the line from its start,
// as a terminal shows it (a progress line keeps its last state, text longer
// than what overwrote it stays), and invalid UTF-8 becomes U+FFFD. Model
// text goes through modelText first, where a carriage return is a line
// break. Text without any of these
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
		if strings.IndexByte(line, '\r') >= 0 {
			line = overstrike(line)
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

// overstrike applies the carriage returns of one line the way a terminal
// does: each part after a carriage return overwrites the line from its
// first character, one character per rune, and what it does not reach
// stays ("keep[\rX]" shows "X]ep[").
func overstrike(line string) string {
	nl := strings.HasSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\n")
	var cells []rune
	for i, part := range strings.Split(line, "\r") {
		if i == 0 {
			cells = []rune(part)
			continue
		}
		at := 0
		for _, r := range part {
			if at < len(cells) {
				cells[at] = r
			} else {
				cells = append(cells, r)
			}
			at++
		}
	}
	out := string(cells)
	if nl {
		out += "\n"
	}
	return out
}

// modelText prepares text the model wrote for printing: a carriage return
// (alone or before a newline) is a line break, as omp shows it, so no text
// is overwritten; then clean.
func modelText(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return clean(s)
}
