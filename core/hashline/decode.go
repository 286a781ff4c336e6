package hashline

import "unicode/utf8"

// AppendDecoded appends s to dst as a JavaScript program sees a file with
// those bytes: valid UTF-8 is kept, and each maximal ill-formed subsequence
// (an invalid byte, or the valid start of a character cut short) becomes
// one U+FFFD, the WHATWG decoder's rule that Bun's file reads and
// TextDecoder follow. omp hashes the decoded text, so a line holding
// invalid UTF-8 must be hashed in this form to get omp's anchor.
func AppendDecoded(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size > 1 {
			dst = append(dst, s[i:i+size]...)
			i += size
			continue
		}
		dst = append(dst, "\uFFFD"...)
		i += illFormedLen(s[i:])
	}
	return dst
}

// illFormedLen is the length of the maximal ill-formed subsequence at the
// start of s, which does not start with a valid character: the lead byte
// and the continuation bytes that still fit the character it announces.
func illFormedLen(s string) int {
	var need int                     // continuation bytes the lead byte announces
	lo, hi := byte(0x80), byte(0xBF) // range of the first continuation byte
	switch c := s[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 1 // a continuation byte alone, or a byte no character starts with
	}
	n := 1
	for ; n <= need && n < len(s); n++ {
		if s[n] < lo || s[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
