package applypatch

import (
	"strings"
	"unicode"
)

// matchesAt reports whether pattern matches lines from at on, line by
// line under eq.
func matchesAt(lines, pattern []string, at int, eq func(a, b string) bool) bool {
	for k, p := range pattern {
		if !eq(lines[at+k], p) {
			return false
		}
	}
	return true
}

// predicates are the first line comparisons of a hunk search (see
// seekPatch), strictest first: exact, equal after trimming trailing white
// space, equal after trimming both ends, and equal after trimming and
// folding typographic punctuation to ASCII (foldPunctuation).
var predicates = []func(a, b string) bool{
	func(a, b string) bool { return a == b },
	func(a, b string) bool { return trimEnd(a) == trimEnd(b) },
	func(a, b string) bool { return trim(a) == trim(b) },
	func(a, b string) bool { return foldPunctuation(trim(a)) == foldPunctuation(trim(b)) },
}

func trimEnd(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }
func trim(s string) string    { return strings.TrimFunc(s, unicode.IsSpace) }

// foldPunctuation maps typographic dashes, quotes and spaces to their
// ASCII counterparts, so a patch typed with plain ASCII matches a file
// holding their look-alikes. Every other code point is kept.
func foldPunctuation(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007',
			'\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, s)
}
