// Package termsafe makes text from models, tools, files and web pages
// safe to print on a terminal: escape sequences, control characters and
// bidirectional-override characters are removed, so the text can neither
// drive the terminal (retitle it, clear it, write the clipboard) nor make
// what is shown read differently from what it is.
package termsafe

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Text is s cleaned for printing over several lines: escape sequences,
// C0/C1 controls (newline and tab kept), DEL and bidi controls removed; a
// carriage return makes what follows it overwrite the line from its start,
// as a terminal shows it (a progress line keeps its last state, text longer
// than what overwrote it stays); invalid UTF-8 becomes U+FFFD. Clean text
// is returned as it is.
func Text(s string) string {
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
			if r == '\n' || r == '\t' || !IsControl(r) && !IsBidi(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
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
		for at, r := range []rune(part) {
			if at < len(cells) {
				cells[at] = r
			} else {
				cells = append(cells, r)
			}
		}
	}
	out := string(cells)
	if nl {
		out += "\n"
	}
	return out
}

// Line is s cleaned for printing on one line: as Text, but tabs and line
// breaks become spaces and invalid UTF-8 is dropped.
func Line(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return IsControl(r) || IsBidi(r) }) && utf8.ValidString(s) {
		return s
	}
	s = ansi.Strip(strings.ToValidUTF8(s, ""))
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case IsControl(r) || IsBidi(r):
			return -1
		}
		return r
	}, s)
}

// IsControl reports whether r is a C0 or C1 control character or DEL.
func IsControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// IsBidi reports whether r is a bidirectional formatting character (the
// embeddings, overrides and isolates, and the marks), which can make a
// terminal show text in another order than it is written.
func IsBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// needsCleaning reports whether s holds anything Text removes or changes.
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
		if r == utf8.RuneError && n == 1 || r >= 0x80 && r < 0xa0 || IsBidi(r) {
			return true
		}
		i += n
	}
	return false
}
