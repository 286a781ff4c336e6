package hashline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/internal/xxh32"
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
func hashIndex(line int, text string) int { return normalizedIndex(line, normalize(text)) }

// normalizedIndex is hashIndex of a line already normalised (no '\r', no
// trailing white space).
func normalizedIndex(line int, s string) int {
	// Ill-formed bytes decode to U+FFFD, which is neither a letter nor
	// white space: the seed and the trimming are the same before and after
	// decoding, only the hashed bytes differ.
	seed := Seed(line, hasAlnum(s))
	h, ascii := xxh32.SumASCII(s, seed)
	if !ascii && !utf8.ValidString(s) {
		h = xxh32.Sum(string(AppendDecoded(nil, s)), seed)
	}
	return int(h % BigramCount)
}

// Seed is the hash seed of line number line: 0 for a line holding a letter
// or digit, so that its anchor survives moving, else the line number, so
// that the many identical "}" or blank lines of a file get different
// anchors.
func Seed(line int, alnum bool) uint32 {
	if alnum {
		return 0
	}
	return uint32(line)
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

// TrimmedLen is the length of s without its trailing white space: the part
// of a line its hash covers (the streaming hasher of core/hashline/linehash
// asks it of each piece).
func TrimmedLen(s string) int { return len(trimRightSpace(s)) }

// HasAlnum reports whether s holds a letter or a digit of any script: a
// line without one is hashed with its line number as the seed.
func HasAlnum(s string) bool { return hasAlnum(s) }

// trimRightSpace trims trailing white space as JavaScript's trimEnd does,
// with an ASCII fast path.
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
		if !isJSSpace(r) {
			return s
		}
		s = s[:len(s)-size]
	}
	return s
}

// isJSSpace reports whether a non-ASCII r is white space to JavaScript
// (WhiteSpace and LineTerminator of ECMA-262): the space separators (Zs),
// U+2028, U+2029 and the byte-order mark U+FEFF. Unlike Go's
// unicode.IsSpace it does not count U+0085 (NEL).
func isJSSpace(r rune) bool {
	switch r {
	case 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// hasAlnum reports whether s holds a letter or a digit (any script): a
// character of Unicode category L or N, as omp's /[\p{L}\p{N}]/u.
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
		if isLetterOrNumber(r) {
			return true
		}
		i += size
	}
	return false
}

// isLetterOrNumber reports whether r is of category L or N in the Unicode
// version omp's runtime uses.
func isLetterOrNumber(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(jsNewerLettersDigits, r)
}

// asciiAlnum marks the ASCII letters and digits.
var asciiAlnum = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()
