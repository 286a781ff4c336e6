package fuzzy

import (
	"strings"
	"unicode"
)

// The oracle: enumerate every increasing assignment of query characters to
// candidate positions and score each by the documented definition. It is
// exponential, so callers keep inputs short.

// refScore returns the best score and one alignment (rune indexes).
func refScore(query, candidate string) (int, []int, bool) {
	q := []rune(query)
	t := []rune(candidate)
	if len(q) == 0 {
		return 0, nil, true
	}
	sensitive := false
	for _, r := range q {
		if unicode.IsUpper(r) {
			sensitive = true
		}
	}
	eq := func(a, b rune) bool {
		if sensitive {
			return a == b
		}
		return unicode.ToLower(a) == unicode.ToLower(b)
	}
	best, found := 0, false
	var bestPos []int
	pos := make([]int, len(q))
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == len(q) {
			s := refAlignmentScore(t, pos)
			if !found || s > best {
				best, found = s, true
				bestPos = append([]int(nil), pos...)
			}
			return
		}
		for j := from; j < len(t); j++ {
			if eq(q[i], t[j]) {
				pos[i] = j
				rec(i+1, j+1)
			}
		}
	}
	rec(0, 0)
	return best, bestPos, found
}

// refAlignmentScore scores matched rune indexes pos in t.
func refAlignmentScore(t []rune, pos []int) int {
	base := strings.LastIndex(string(t), "/")
	baseRune := 0
	if base >= 0 {
		baseRune = len([]rune(string(t)[:base])) + 1
	}
	total := 0
	for i, j := range pos {
		b := refBoundary(t, j)
		if i == 0 {
			b *= FirstCharMultiplier
		}
		total += ScoreMatch + b
		if j >= baseRune {
			total += BonusBasename
		}
		if i > 0 {
			if gap := j - pos[i-1] - 1; gap == 0 {
				total += BonusConsecutive
			} else {
				total -= GapStart + GapExtend*(gap-1)
			}
		}
	}
	return total
}

// refBoundary restates the boundary rules from the package documentation.
func refBoundary(t []rune, j int) int {
	if j == 0 || t[j-1] == '/' {
		return BonusSlash
	}
	p, c := t[j-1], t[j]
	if unicode.IsLetter(p) {
		if (unicode.IsLower(p) && unicode.IsUpper(c)) || unicode.IsDigit(c) {
			return BonusCamel
		}
		return 0
	}
	if unicode.IsDigit(p) {
		return 0
	}
	return BonusDelimiter
}
