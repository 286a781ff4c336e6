package hashline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zeebo/xxh3"
)

// RangeInteriorHash stands in for the hash of a line inside a range
// `A..B`: only the two ends of a range are checked against the file.
const RangeInteriorHash = "**"

// LineHash returns the two-letter hash of line number line (1-based) with
// content text. text may carry its line terminator or a trailing '\r'.
func LineHash(line int, text string) string {
	return bigrams[hashIndex(line, text)]
}

// Anchor returns the anchor token for a line, e.g. "41th".
func Anchor(line int, text string) string {
	var buf [24]byte
	return string(appendAnchor(buf[:0], line, text))
}

// hashIndex is the table index of a line's hash.
func hashIndex(line int, text string) int {
	s := normalize(text)
	var h uint64
	if hasAlnum(s) {
		h = xxh3.HashString(s)
	} else {
		h = xxh3.HashStringSeed(s, uint64(line))
	}
	return int(h % BigramCount)
}

// normalize removes every '\r' and trims trailing white space. It returns a
// substring of text (no allocation) unless text holds a '\r' before its end.
func normalize(text string) string {
	text = trimRightSpace(text)
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	return trimRightSpace(strings.ReplaceAll(text, "\r", ""))
}

// TrimmedLen is the length of s without its trailing Unicode white space:
// the part of a line its hash covers (the streaming hasher of
// core/hashline/linehash asks it of each piece).
func TrimmedLen(s string) int { return len(trimRightSpace(s)) }

// HasAlnum reports whether s holds a letter or a digit of any script: a
// line without one is hashed with its line number as the seed.
func HasAlnum(s string) bool { return hasAlnum(s) }

// trimRightSpace trims trailing Unicode white space, with an ASCII fast path.
func trimRightSpace(s string) string {
	for len(s) > 0 {
		c := s[len(s)-1]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
				s = s[:len(s)-1]
				continue
			}
			return s
		}
		r, size := utf8.DecodeLastRuneInString(s)
		if !unicode.IsSpace(r) {
			return s
		}
		s = s[:len(s)-size]
	}
	return s
}

// hasAlnum reports whether s holds a letter or a digit (any script).
func hasAlnum(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiAlnum[c] {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
		i += size
	}
	return false
}

// asciiAlnum marks the ASCII letters and digits.
var asciiAlnum = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()
