// Package pretokenize splits text into the pieces that byte-pair encoding
// then turns into tokens, exactly as the split regexes of OpenAI's
// o200k_base and cl100k_base encodings do, without running a regex.
//
// The split regexes are alternations of simple character-class runs with
// leftmost-first, greedy, backtracking semantics. Each alternative reduces to
// a forward scan over the classes of the next few characters, so the
// splitters here are hand-written loops: one class lookup per character (a
// 256-entry table for ASCII, a lazily built table for the first three Unicode
// planes, the unicode package beyond), no allocation, no backtracking.
//
// The reference is github.com/dlclark/regexp2 running the same patterns, as
// github.com/pkoukk/tiktoken-go does: its \s is unicode.IsSpace, its \p{…}
// classes are Go's unicode tables, and case-insensitive letters compare after
// unicode.ToLower. The tests compare split points with regexp2 directly.
//
// Input must be valid UTF-8; callers replace invalid bytes first.
package pretokenize

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Character classes, as bits. A character may have several.
const (
	clsLetter  = 1 << iota // \p{L}
	clsNumber              // \p{N}
	clsSpace               // \s, i.e. unicode.IsSpace
	clsUpper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]: the leading run of an o200k word
	clsLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]: the trailing run of an o200k word
	clsNewline             // \r or \n
	clsPrefix              // [^\r\n\p{L}\p{N}]: the optional character before a word
	clsPunct               // [^\s\p{L}\p{N}]: symbols and punctuation
)

// tableLimit is where the precomputed rune table ends: the BMP, the
// supplementary multilingual plane (emoji) and the ideographic plane.
const tableLimit = 0x30000

var (
	asciiClasses [128]uint8
	tableOnce    sync.Once
	runeClasses  []uint8 // indexed by rune < tableLimit
)

func init() {
	for r := rune(0); r < 128; r++ {
		asciiClasses[r] = computeClass(r)
	}
}

// computeClass is the definition of the classes, rune by rune.
func computeClass(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= clsLetter
	}
	if unicode.IsNumber(r) {
		c |= clsNumber
	}
	if unicode.IsSpace(r) {
		c |= clsSpace
	}
	mark := unicode.IsMark(r)
	if mark || unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo) {
		c |= clsUpper
	}
	if mark || unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo) {
		c |= clsLower
	}
	if r == '\r' || r == '\n' {
		c |= clsNewline
	}
	return c | derived(c)
}

// derived adds the two negated classes, which follow from the others.
func derived(c uint8) uint8 {
	var d uint8
	if c&(clsNewline|clsLetter|clsNumber) == 0 {
		d |= clsPrefix
	}
	if c&(clsSpace|clsLetter|clsNumber) == 0 {
		d |= clsPunct
	}
	return d
}

// buildTable fills runeClasses from the unicode range tables, walking ranges
// rather than testing every rune so it stays well under a millisecond.
func buildTable() {
	t := make([]uint8, tableLimit)
	mark := func(tab *unicode.RangeTable, bit uint8) {
		for _, r := range tab.R16 {
			for c := uint32(r.Lo); c <= uint32(r.Hi); c += uint32(r.Stride) {
				t[c] |= bit
			}
		}
		for _, r := range tab.R32 {
			for c := r.Lo; c <= r.Hi && c < tableLimit; c += r.Stride {
				t[c] |= bit
			}
		}
	}
	mark(unicode.L, clsLetter)
	mark(unicode.N, clsNumber)
	for _, tab := range []*unicode.RangeTable{unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M} {
		mark(tab, clsUpper)
	}
	for _, tab := range []*unicode.RangeTable{unicode.Ll, unicode.Lm, unicode.Lo, unicode.M} {
		mark(tab, clsLower)
	}
	mark(unicode.White_Space, clsSpace) // unicode.IsSpace for runes above Latin-1
	for r := 0; r < 256; r++ {          // Latin-1 has its own rule in unicode.IsSpace
		t[r] &^= clsSpace
		if unicode.IsSpace(rune(r)) {
			t[r] |= clsSpace
		}
	}
	t['\r'] |= clsNewline
	t['\n'] |= clsNewline
	for i := range t {
		t[i] |= derived(t[i])
	}
	runeClasses = t
}

// classAt returns the class and byte width of the character at s[i].
func classAt(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClasses[b], 1
	}
	return classAtSlow(s, i)
}

// classAtSlow is classAt for a non-ASCII character.
func classAtSlow(s string, i int) (uint8, int) {
	r, w := utf8.DecodeRuneInString(s[i:])
	return runeClass(r), w
}

// runeClass returns the class of a non-ASCII rune.
func runeClass(r rune) uint8 {
	if r < tableLimit {
		tableOnce.Do(buildTable)
		return runeClasses[r]
	}
	return computeClass(r)
}
