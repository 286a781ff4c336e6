package fuzzy

import (
	"unicode"
	"unicode/utf8"
)

// Scoring constants; the package documentation explains each one.
const (
	ScoreMatch          = 16 // every matched character
	BonusSlash          = 10 // match right after '/' (or at the start of the path)
	BonusDelimiter      = 8  // match right after '_', '-', '.', ' ' or other punctuation
	BonusCamel          = 7  // lower→Upper or letter→digit transition
	BonusBasename       = 3  // match inside the last path segment
	BonusConsecutive    = 6  // match directly after the previous matched character
	FirstCharMultiplier = 2  // the boundary bonus of the first query character counts double
	GapStart            = 3  // penalty for a gap between two matched characters
	GapExtend           = 1  // extra penalty for each further skipped character
)

// negInf marks an impossible DP cell. It is far below any reachable score
// but far enough above the int32 minimum that subtracting gap penalties
// over a long candidate cannot overflow.
const negInf = -(1 << 29)

// maxCandidateRunes bounds the DP width. Longer candidates (pathological;
// PATH_MAX is 4096 bytes) are not scored.
const maxCandidateRunes = 1 << 14

// Matcher is a compiled query. It is immutable and safe for concurrent use;
// scoring state lives in a Scratch owned by the caller.
type Matcher struct {
	query         []rune // folded to lower case unless caseSensitive
	caseSensitive bool   // smart case: the query has an upper-case letter
	ascii         bool   // every query rune is ASCII (enables the byte prefilter)
}

// Scratch holds the buffers Score reuses. The zero value is ready; a
// Scratch must not be shared between goroutines.
type Scratch struct {
	text   []rune  // candidate runes (original case, for bonuses)
	folded []rune  // candidate runes as compared with the query
	offs   []int32 // byte offset of each rune
	prev   []int32 // DP row for query index i-1
	cur    []int32 // DP row for query index i
}

// NewMatcher compiles a query. Smart case: matching ignores case unless the
// query contains an upper-case letter.
func NewMatcher(query string) *Matcher {
	m := &Matcher{query: []rune(query), ascii: true}
	for _, r := range m.query {
		if unicode.IsUpper(r) {
			m.caseSensitive = true
		}
		if r >= utf8.RuneSelf {
			m.ascii = false
		}
	}
	if !m.caseSensitive {
		for i, r := range m.query {
			m.query[i] = unicode.ToLower(r)
		}
	}
	return m
}

// Empty reports whether the query has no characters.
func (m *Matcher) Empty() bool { return len(m.query) == 0 }

func (m *Matcher) fold(r rune) rune {
	if m.caseSensitive {
		return r
	}
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// prefilter is the cheap rejection: is the query a subsequence of the
// candidate? For an ASCII query it scans bytes without decoding; a non-ASCII
// candidate byte sends it to the rune path, because some non-ASCII letters
// fold to ASCII ones (the Kelvin sign to 'k').
func (m *Matcher) prefilter(s string) bool {
	q := m.query
	if m.ascii {
		i := 0
		for k := 0; k < len(s); k++ {
			c := s[k]
			if c >= utf8.RuneSelf {
				return m.prefilterRunes(s)
			}
			if !m.caseSensitive && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if rune(c) == q[i] {
				if i++; i == len(q) {
					return true
				}
			}
		}
		return false
	}
	return m.prefilterRunes(s)
}

func (m *Matcher) prefilterRunes(s string) bool {
	q := m.query
	i := 0
	for _, r := range s {
		if m.fold(r) == q[i] {
			if i++; i == len(q) {
				return true
			}
		}
	}
	return false
}

// load decodes the candidate into the scratch buffers.
func (m *Matcher) load(s string, sc *Scratch) int {
	sc.text, sc.folded, sc.offs = sc.text[:0], sc.folded[:0], sc.offs[:0]
	for off, r := range s {
		sc.text = append(sc.text, r)
		sc.folded = append(sc.folded, m.fold(r))
		sc.offs = append(sc.offs, int32(off))
	}
	return len(sc.text)
}

// Score returns the best alignment score of the query in candidate, and
// false when the query is not a subsequence of it. It does not allocate
// once the scratch buffers have grown to the longest candidate.
func (m *Matcher) Score(candidate string, sc *Scratch) (int, bool) {
	if len(m.query) == 0 {
		return 0, true
	}
	if !m.prefilter(candidate) {
		return 0, false
	}
	n := m.load(candidate, sc)
	if n > maxCandidateRunes {
		return 0, false
	}
	lo, hi := m.window(sc.folded)
	if cap(sc.prev) < n {
		sc.prev, sc.cur = make([]int32, n), make([]int32, n)
	}
	prev, cur := sc.prev[:n], sc.cur[:n]
	base := basenameStart(sc.text)
	m.row0(sc, prev, lo, hi, base)
	for i := 1; i < len(m.query); i++ {
		m.row(sc, i, prev, cur, lo, hi, base)
		prev, cur = cur, prev
	}
	best := int32(negInf)
	for j := lo; j <= hi; j++ {
		best = max(best, prev[j])
	}
	return int(best), best > negInf/2
}

// window narrows the DP to [first occurrence of the first query rune, last
// occurrence of the last one]; no alignment can use a column outside it.
func (m *Matcher) window(folded []rune) (lo, hi int) {
	q := m.query
	lo, hi = 0, len(folded)-1
	for lo < len(folded) && folded[lo] != q[0] {
		lo++
	}
	for hi > lo && folded[hi] != q[len(q)-1] {
		hi--
	}
	return lo, hi
}

// row0 fills the DP row of the first query character: a match there scores
// ScoreMatch plus its position bonus counted FirstCharMultiplier times.
func (m *Matcher) row0(sc *Scratch, row []int32, lo, hi, base int) {
	q0 := m.query[0]
	for j := lo; j <= hi; j++ {
		if sc.folded[j] != q0 {
			row[j] = negInf
			continue
		}
		row[j] = int32(ScoreMatch + FirstCharMultiplier*boundaryBonus(sc.text, j) + basenameBonus(j, base))
	}
}

// row fills the DP row of query index i from the row of i-1:
//
//	cur[j] = own(j) + max(prev[j-1] + BonusConsecutive,
//	                      max over k ≤ j-2 of prev[k] - GapStart - GapExtend·(j-k-2))
//
// The inner maximum is carried along j in gap, which loses GapExtend per
// step and is refreshed by prev[j-2] - GapStart, so a row costs O(width).
func (m *Matcher) row(sc *Scratch, i int, prev, cur []int32, lo, hi, base int) {
	qi := m.query[i]
	gap := int32(negInf)
	cur[lo] = negInf
	for j := lo + 1; j <= hi; j++ {
		if j-2 >= lo {
			gap = max(gap-GapExtend, prev[j-2]-GapStart)
		}
		if sc.folded[j] != qi {
			cur[j] = negInf
			continue
		}
		from := max(prev[j-1]+BonusConsecutive, gap)
		if from <= negInf/2 {
			cur[j] = negInf
			continue
		}
		cur[j] = from + int32(ScoreMatch+boundaryBonus(sc.text, j)+basenameBonus(j, base))
	}
}

// basenameStart is the index of the first rune after the last '/'.
func basenameStart(text []rune) int {
	for j := len(text) - 1; j >= 0; j-- {
		if text[j] == '/' {
			return j + 1
		}
	}
	return 0
}

func basenameBonus(j, base int) int {
	if j >= base {
		return BonusBasename
	}
	return 0
}

// boundaryBonus rates position j by the character before it.
func boundaryBonus(text []rune, j int) int {
	if j == 0 {
		return BonusSlash
	}
	p, c := text[j-1], text[j]
	switch {
	case p == '/':
		return BonusSlash
	case isLetter(p):
		if isLower(p) && isUpper(c) || isDigit(c) {
			return BonusCamel
		}
		return 0
	case isDigit(p):
		return 0
	default: // '_', '-', '.', ' ' and any other punctuation or symbol
		return BonusDelimiter
	}
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}
