// Package jsonquote appends Go strings as JSON string literals, the one
// escaping loop shared by the hand-written JSON writers (session files,
// `gopi ast grep --json`).
package jsonquote

import "unicode/utf8"

// plain marks the ASCII bytes a JSON string holds as they are.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainWord reports whether the eight bytes of x are all plain ASCII: none
// at or above 0x80, none below 0x20, none a quote or a backslash, all eight
// checked at once. The borrows of the subtractions can only carry upward
// from a byte that already fails, so the answer is exact.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	control := x - 0x20*ones // a byte below 0x20 borrows into its high bit
	quote := x ^ '"'*ones    // a quote becomes a zero byte
	backslash := x ^ '\\'*ones
	zeroQuote := (quote - ones) &^ quote
	zeroBackslash := (backslash - ones) &^ backslash
	return (x|control&^x|zeroQuote|zeroBackslash)&highs == 0
}

// Append appends s quoted: '"', '\\' and control characters escaped (\b,
// \f, \n, \r and \t in their short forms, the others as \u00XX), and
// invalid UTF-8 replaced by \ufffd, as both encoding/json and
// JavaScript's JSON.stringify write them. With lineSeparators, U+2028 and
// U+2029 are escaped too, as encoding/json does (JSON.stringify does not);
// no HTML escaping either way.
func Append(b []byte, s string, lineSeparators bool) []byte {
	const hexd = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Past the plain ASCII bytes, eight at a time while it lasts (most
		// of a line of source), then one at a time up to the next byte to
		// look at.
		for i+8 <= len(s) && plainWord(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|
			uint64(s[i+3])<<24|uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if lineSeparators && (r == '\u2028' || r == '\u2029') {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexd[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
