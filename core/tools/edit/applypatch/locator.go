package applypatch

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// A patch-mode hunk's "@@ TEXT" locators are found as omp finds them: each
// line through passes of decreasing strictness that count every match
// (exact, trimmed, typographic punctuation folded, prefix, substring,
// 80% similar, and for "name()" the name with its parenthesis open or
// without it); nested locators each after the one before; a locator of
// more than two words without brackets as its words but the last, then
// the last word after them. A missing or ambiguous locator is passed
// over when the hunk's own lines are found once; otherwise the hunk is
// refused.

// locatorThreshold is the least similarity of a fuzzy locator match.
const locatorThreshold = 0.8

// findLocatorLine finds one locator line in lines from from on.
func findLocatorLine(lines []string, locator string, from int, noCallFallback bool) seekResult {
	trimmed := jstext.Trim(locator)
	passes := []struct {
		name string
		eq   func(line string) bool
	}{
		{"exact", func(l string) bool { return l == locator }},
		{"trim", func(l string) bool { return jstext.Trim(l) == trimmed }},
		{"unicode", func(l string) bool { return foldPunctuation(trim(l)) == foldPunctuation(trim(locator)) }},
	}
	norm := fuzzyLine(locator)
	if norm != "" {
		passes = append(passes, struct {
			name string
			eq   func(line string) bool
		}{"prefix", func(l string) bool { return strings.HasPrefix(fuzzyLine(l), norm) }})
	}
	for _, p := range passes {
		r := seekResult{at: -1, strategy: p.name}
		for i := max(from, 0); i < len(lines); i++ {
			if p.eq(lines[i]) {
				r.note(i)
			}
		}
		if r.found() {
			return r
		}
	}
	if r := substringLocator(lines, norm, from); r.found() {
		return r
	}
	fuzzy := seekResult{at: -1, strategy: "fuzzy"}
	best, bestAt := 0.0, -1
	for i := max(from, 0); i < len(lines); i++ {
		s := similarity(fuzzyLine(lines[i]), norm)
		if s >= locatorThreshold {
			fuzzy.note(i)
		}
		if s > best {
			best, bestAt = s, i
		}
	}
	if bestAt >= 0 && best >= locatorThreshold {
		fuzzy.at = bestAt
		return fuzzy
	}
	if name, ok := strings.CutSuffix(strings.TrimRightFunc(trimmed, jstext.IsSpace), "()"); ok && !noCallFallback {
		if r := findLocatorLine(lines, name+"(", from, true); r.found() || r.count > 0 {
			return r
		}
		return findLocatorLine(lines, name, from, true)
	}
	return seekResult{at: -1}
}

// substringLocator: lines containing the normalised locator (at least
// substringMinLen characters). One such line is taken whatever its
// length; of several, those the locator is 30% of count.
func substringLocator(lines []string, norm string, from int) seekResult {
	if len([]rune(norm)) < substringMinLen {
		return seekResult{at: -1}
	}
	all := seekResult{at: -1, strategy: "substring"}
	dense := seekResult{at: -1, strategy: "substring"}
	for i := max(from, 0); i < len(lines); i++ {
		l := fuzzyLine(lines[i])
		if !strings.Contains(l, norm) {
			continue
		}
		all.note(i)
		if float64(len([]rune(norm)))/float64(max(1, len([]rune(l)))) >= substringMinRatio {
			dense.note(i)
		}
	}
	switch {
	case all.count == 1:
		return all
	case dense.found():
		dense.indices = all.indices
		return dense
	case all.count > 1:
		return all
	}
	return seekResult{at: -1}
}

// findLocators finds a hunk's locators from cursor; hint is its 1-based
// line hint (0: none), which settles an ambiguous or missing innermost
// locator when searching from it finds one.
func findLocators(lines, locators []string, cursor, hint int) seekResult {
	fromHint := func(locator string, after int) (seekResult, bool) {
		if hint <= 0 || hint-1 < after {
			return seekResult{}, false
		}
		r := findLocatorLine(lines, locator, hint-1, false)
		r.count, r.indices = 1, []int{r.at}
		return r, r.found()
	}
	if len(locators) > 1 {
		start := cursor
		var parts []string
		for _, l := range locators {
			if t := jstext.Trim(l); t != "" {
				parts = append(parts, t)
			}
		}
		for k, part := range parts {
			last := k == len(parts)-1
			r := findLocatorLine(lines, part, start, false)
			if r.ambiguous() || !r.found() {
				if last {
					if h, ok := fromHint(part, start); ok {
						return h
					}
				}
				r.at = -1
				return r
			}
			if last {
				return r
			}
			start = r.at + 1
		}
		return seekResult{at: -1}
	}
	locator := locators[0]
	words := strings.Fields(locator)
	signature := strings.ContainsAny(locator, "(){}[]")
	split := func() (seekResult, bool) {
		outer := findLocatorLine(lines, strings.Join(words[:len(words)-1], " "), cursor, false)
		if outer.ambiguous() {
			outer.at = -1
			return outer, true
		}
		if !outer.found() {
			return outer, false
		}
		if inner := findLocatorLine(lines, words[len(words)-1], outer.at+1, false); inner.found() {
			inner.count, inner.indices = 1, []int{inner.at}
			return inner, true
		}
		return seekResult{at: -1}, false
	}
	if !signature && len(words) > 2 {
		if r, ok := split(); ok {
			return r
		}
	}
	r := findLocatorLine(lines, locator, cursor, false)
	if !r.found() || r.ambiguous() {
		if h, ok := fromHint(locator, 0); ok {
			return h
		}
	}
	if r.found() || r.ambiguous() {
		return r
	}
	if cursor != 0 {
		if top := findLocatorLine(lines, locator, 0, false); top.found() {
			return top
		}
	}
	if !signature && len(words) > 1 {
		outer := findLocatorLine(lines, strings.Join(words[:len(words)-1], " "), cursor, false)
		switch {
		case outer.ambiguous():
			outer.at = -1
			return outer
		case !outer.found():
			return outer
		}
		if inner := findLocatorLine(lines, words[len(words)-1], outer.at+1, false); inner.found() {
			inner.count, inner.indices = 1, []int{inner.at}
			return inner
		}
	}
	return r
}

// locatorError refuses a hunk whose locators are ambiguous or missing
// (and whose lines could not place it alone).
func locatorError(lines []string, r seekResult, locators []string, shown string) error {
	if r.ambiguous() {
		return fmt.Errorf("Found %d matches for context '%s' in %s.%s\n\nAdd more surrounding context or additional @@ anchors to make it unique.",
			r.count, locators[len(locators)-1], shown, r.describe(lines))
	}
	return fmt.Errorf("Failed to find context '%s' in %s", strings.Join(locators, " > "), shown)
}
