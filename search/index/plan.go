package index

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Planner limits: each bounds the work or the size of a query, and
// past each the planner gives up precision (never soundness).
const (
	// maxExact is the most alternative strings an exact set may hold
	// (a case-folded "identifier" has 2^10 spellings: far too many).
	maxExact = 64
	// maxClassRunes is the largest character class expanded into
	// strings; a larger class ([a-z], \w) matches any character.
	maxClassRunes = 8
)

// Plan turns a regex into a trigram query that every file holding a match
// satisfies. It reads the pattern with Go's regexp/syntax in Perl mode
// (the grep engine's own brace escaping applied first) and keeps only
// what the two regex dialects read alike: literal text, concatenation,
// alternation, groups, repetition and small character classes; anything
// else matches "anything", which only widens the candidate set. ok is
// false when the pattern does not parse here: the caller walks instead.
func Plan(pattern string, ignoreCase bool) (q *Query, ok bool) {
	flags := syntax.Perl
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(pattern, flags)
	if err != nil {
		return nil, false
	}
	a := analyze(re.Simplify())
	return a.query(), true
}

// info is what the planner knows of a sub-expression: exact, when not
// nil, is every string it can match (so a concatenation can join them
// into longer literals); match is a query every matching file satisfies.
type info struct {
	exact []string
	match *Query
}

// query is everything info requires of a file.
func (i info) query() *Query {
	if i.exact == nil {
		return i.match
	}
	return and(i.match, exactQuery(i.exact))
}

func anyInfo() info { return info{match: allQuery()} }

func analyze(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpNoMatch:
		return info{match: noneQuery()}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: []string{""}, match: allQuery()}
	case syntax.OpLiteral:
		// A literal is a concatenation of its runes (each with its
		// case variants): a long case-folded one is cut into runs.
		match, exact := allQuery(), []string{""}
		for _, r := range re.Rune {
			variants := []rune{r}
			if re.Flags&syntax.FoldCase != 0 {
				variants = foldOrbit(r)
			}
			one := runeStrings(variants)
			if joined := cross(exact, one); joined != nil {
				exact = joined
				continue
			}
			match = and(match, exactQuery(exact))
			exact = one
		}
		return info{exact: exact, match: match}
	case syntax.OpCharClass:
		runes := classRunes(re.Rune)
		if runes == nil {
			return anyInfo()
		}
		return info{exact: runeStrings(runes), match: allQuery()}
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpPlus:
		return info{match: analyze(re.Sub[0]).query()}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return info{match: analyze(re.Sub[0]).query()}
		}
		return anyInfo()
	case syntax.OpConcat:
		return concat(re.Sub)
	case syntax.OpAlternate:
		return alternate(re.Sub)
	}
	// OpStar, OpQuest, OpAnyChar, OpAnyCharNotNL and anything newer.
	return anyInfo()
}

// concat joins neighbouring exact sets into longer strings while the
// product stays small; a part without one (or a product too large)
// closes the run, whose strings become trigram conditions.
func concat(subs []*syntax.Regexp) info {
	match := allQuery()
	run := []string{""}
	for _, sub := range subs {
		a := analyze(sub)
		match = and(match, a.match)
		if a.exact != nil {
			if joined := cross(run, a.exact); joined != nil {
				run = joined
				continue
			}
			match = and(match, exactQuery(run))
			run = a.exact
			continue
		}
		match = and(match, exactQuery(run))
		run = []string{""}
	}
	return info{exact: run, match: match}
}

// alternate: a file matching the alternation matches one branch.
func alternate(subs []*syntax.Regexp) info {
	var exact []string
	allExact := true
	var match *Query
	for i, sub := range subs {
		a := analyze(sub)
		if allExact && a.exact != nil && a.match.Op == OpAll {
			exact = append(exact, a.exact...)
		} else {
			allExact = false
		}
		if i == 0 {
			match = a.query()
		} else {
			match = or(match, a.query())
		}
	}
	if allExact {
		exact = dedupe(exact)
		if len(exact) <= maxExact {
			return info{exact: exact, match: allQuery()}
		}
	}
	return info{match: match}
}

// cross is every string of a followed by one of b, or nil when that is
// more than maxExact strings.
func cross(a, b []string) []string {
	if len(a)*len(b) > maxExact {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return dedupe(out)
}

func dedupe(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// foldOrbit is r with every rune simple case folding makes equal to it
// (k, K and the Kelvin sign), as a case-insensitive regex matches them.
func foldOrbit(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
}

// classRunes lists the runes of a class given as ranges, or nil when
// there are more than maxClassRunes.
func classRunes(ranges []rune) []rune {
	var out []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi-lo >= maxClassRunes || len(out)+int(hi-lo)+1 > maxClassRunes {
			return nil
		}
		for r := lo; r <= hi; r++ {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func runeStrings(runes []rune) []string {
	out := make([]string, 0, len(runes))
	for _, r := range runes {
		if r == utf8.RuneError || !utf8.ValidRune(r) {
			// An invalid rune matches bytes we cannot spell; say nothing.
			return []string{""}
		}
		out = append(out, string(r))
	}
	return out
}

// exactQuery is the condition "one of these strings occurs": an OR over
// the strings of the AND of each one's trigrams. A string shorter than
// three bytes says nothing (it may occur anywhere).
func exactQuery(set []string) *Query {
	var q *Query
	for _, s := range set {
		if len(s) < 3 {
			return allQuery()
		}
		var t *Query = allQuery()
		for i := 0; i+3 <= len(s); i++ {
			t = and(t, triQuery(trigramOf(s[i:i+3])))
		}
		if q == nil {
			q = t
		} else {
			q = or(q, t)
		}
	}
	if q == nil {
		return noneQuery()
	}
	return q
}

func trigramOf(s string) Trigram {
	return Trigram(s[0])<<16 | Trigram(s[1])<<8 | Trigram(s[2])
}
