package applypatch

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// Re-indentation, as omp does it: when a hunk's removed and context lines
// were found with other indentation than the hunk gives them, its added
// lines are shifted to the file's. A hunk whose only change is
// indentation, or whose lines were found exactly, is left as written.

// indentProfile is what the indentation of a block of lines looks like.
type indentProfile struct {
	char      byte // the first indentation character seen (0: none)
	spaceOnly bool // no tab in any indentation
	tabOnly   bool // no space in any indentation
	mixed     bool // a line indents with both, or lines start with different ones
	unit      int  // spaces: the greatest common divisor of the indents; tabs: 1
	nonBlank  int
}

func profileOf(lines []string) indentProfile {
	p := indentProfile{spaceOnly: true, tabOnly: true}
	unit := 0
	for _, l := range lines {
		if jstext.Trim(l) == "" {
			continue
		}
		p.nonBlank++
		ws := l[:leadingBlanks(l)]
		hasSpace, hasTab := strings.Contains(ws, " "), strings.Contains(ws, "\t")
		p.tabOnly = p.tabOnly && !hasSpace
		p.spaceOnly = p.spaceOnly && !hasTab
		p.mixed = p.mixed || hasSpace && hasTab
		if ws != "" {
			if p.char == 0 {
				p.char = ws[0]
			} else if p.char != ws[0] {
				p.mixed = true
			}
			unit = gcd(unit, len(ws))
		}
	}
	switch {
	case p.nonBlank > 0 && p.tabOnly:
		p.unit = 1
	case p.nonBlank > 0 && p.spaceOnly:
		p.unit = unit
	}
	return p
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// reindent is the re-indentation of a hunk matched as text: pattern (the
// hunk's removed lines) was found as actual; added replaces it. A uniform
// shift between pattern and actual is applied to every non-blank added
// line; tab-indented lines found space-indented are converted at the
// file's indentation unit. Mixed indentation or an uneven shift leave
// added as written.
func reindent(pattern, actual, added []string) []string {
	if slices.Equal(pattern, actual) || sameTrimmed(pattern, added) {
		return added
	}
	old, act, add := profileOf(pattern), profileOf(actual), profileOf(added)
	if old.nonBlank == 0 || act.nonBlank == 0 || add.nonBlank == 0 || old.mixed || act.mixed || add.mixed {
		return added
	}
	if old.char != 0 && act.char != 0 && old.char != act.char {
		if act.spaceOnly && old.tabOnly && add.tabOnly && act.unit > 0 && indentsScale(pattern, actual, act.unit) {
			return tabsToSpaces(added, act.unit)
		}
		return added
	}
	delta, ok := uniformShift(pattern, actual)
	if !ok || delta == 0 || add.char != 0 && act.char != 0 && add.char != act.char {
		return added
	}
	char := cmp.Or(act.char, old.char, firstIndentChar(actual))
	return shift(added, delta, char)
}

// reindentLines is the re-indentation of a hunk placed line by line:
// pattern (its context and removed lines) was found as actual; added
// (its context and added lines) replaces it. Tab-indented hunks found
// space-indented (or the reverse) are converted at the ratio the matched
// lines show; otherwise an added line whose text is a line of actual
// takes that line as the file has it, and one at the hunk's least
// indentation is shifted by the uniform difference, when there is one.
func reindentLines(pattern, actual, added []string) []string {
	if len(pattern) == 0 || len(actual) == 0 || len(added) == 0 || slices.Equal(pattern, actual) || sameTrimmed(pattern, added) {
		return added
	}
	old, act := profileOf(pattern), profileOf(actual)
	if !old.mixed && !act.mixed {
		if old.tabOnly && act.spaceOnly {
			if ratio, ok := indentRatio(pattern, actual); ok && indentsScale(pattern, actual, ratio) {
				return tabsToSpaces(added, ratio)
			}
		}
		if old.spaceOnly && act.tabOnly {
			if out, ok := spacesToTabs(pattern, actual, added); ok {
				return out
			}
		}
	}
	byText := map[string][]string{}
	for _, l := range actual {
		if t := jstext.Trim(l); t != "" {
			byText[t] = append(byText[t], l)
		}
	}
	least := -1
	for _, l := range pattern {
		if jstext.Trim(l) != "" && (least < 0 || leadingBlanks(l) < least) {
			least = leadingBlanks(l)
		}
	}
	delta, uniform := uniformShift(pattern, actual)
	char := firstIndentChar(actual)
	used := map[string]int{}
	out := make([]string, len(added))
	for i, l := range added {
		out[i] = l
		t := jstext.Trim(l)
		if t == "" {
			continue
		}
		if same := byText[t]; len(same) == 1 {
			out[i] = same[0]
			continue
		} else if len(same) > 1 {
			if slices.Contains(same, l) {
				continue
			}
			if n := used[t]; n < len(same) {
				used[t] = n + 1
				out[i] = same[n]
				continue
			}
		}
		if uniform && delta != 0 && leadingBlanks(l) == max(least, 0) {
			out[i] = shift([]string{l}, delta, char)[0]
		}
	}
	return out
}

// uniformShift is the indentation difference actual − pattern shared by
// every pair of non-blank lines; ok is false when they differ or there is
// no such pair.
func uniformShift(pattern, actual []string) (delta int, ok bool) {
	for i := range min(len(pattern), len(actual)) {
		if jstext.Trim(pattern[i]) == "" || jstext.Trim(actual[i]) == "" {
			continue
		}
		d := leadingBlanks(actual[i]) - leadingBlanks(pattern[i])
		if ok && d != delta {
			return 0, false
		}
		delta, ok = d, true
	}
	return delta, ok
}

// indentRatio is how many times deeper actual's lines are indented than
// pattern's, when that is one whole number for every indented pair.
func indentRatio(pattern, actual []string) (int, bool) {
	ratio := 0
	for i := range min(len(pattern), len(actual)) {
		if jstext.Trim(pattern[i]) == "" || jstext.Trim(actual[i]) == "" {
			continue
		}
		p, a := leadingBlanks(pattern[i]), leadingBlanks(actual[i])
		if p == 0 {
			continue
		}
		if a%p != 0 {
			return 0, false
		}
		switch r := a / p; {
		case ratio == 0:
			ratio = r
		case r != ratio:
			return 0, false
		}
	}
	return ratio, ratio > 0
}

// indentsScale reports whether every indented pattern line's indentation,
// times per, is the matched line's.
func indentsScale(pattern, actual []string, per int) bool {
	for i := range min(len(pattern), len(actual)) {
		if jstext.Trim(pattern[i]) == "" || jstext.Trim(actual[i]) == "" {
			continue
		}
		if p := leadingBlanks(pattern[i]); p > 0 && leadingBlanks(actual[i]) != p*per {
			return false
		}
	}
	return true
}

// tabsToSpaces replaces a tab-only indentation by per spaces a tab.
func tabsToSpaces(lines []string, per int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l
		ws := l[:leadingBlanks(l)]
		if jstext.Trim(l) != "" && strings.Contains(ws, "\t") && !strings.Contains(ws, " ") {
			out[i] = strings.Repeat(" ", len(ws)*per) + l[len(ws):]
		}
	}
	return out
}

// spacesToTabs converts space-indented added lines to tabs when the
// matched lines show how the hunk's spaces map to the file's tabs
// (spaces = tabs × width + offset, from one or two indentation levels).
func spacesToTabs(pattern, actual, added []string) ([]string, bool) {
	type sample struct{ tabs, spaces int }
	var samples []sample
	for i := range min(len(pattern), len(actual)) {
		if jstext.Trim(pattern[i]) == "" || jstext.Trim(actual[i]) == "" {
			continue
		}
		spaces, tabs := leadingBlanks(pattern[i]), leadingBlanks(actual[i])
		if tabs == 0 {
			continue
		}
		k := slices.IndexFunc(samples, func(s sample) bool { return s.tabs == tabs })
		switch {
		case k < 0:
			samples = append(samples, sample{tabs, spaces})
		case samples[k].spaces != spaces:
			return nil, false
		}
	}
	width, offset := 0, 0
	switch {
	case len(samples) == 1 && samples[0].spaces%samples[0].tabs == 0:
		width = samples[0].spaces / samples[0].tabs
	case len(samples) > 1:
		dt, ds := samples[1].tabs-samples[0].tabs, samples[1].spaces-samples[0].spaces
		if dt == 0 || ds%dt != 0 || ds/dt <= 0 {
			return nil, false
		}
		width, offset = ds/dt, samples[0].spaces-samples[0].tabs*(ds/dt)
		for _, s := range samples {
			if s.tabs*width+offset != s.spaces {
				return nil, false
			}
		}
	}
	if width <= 0 {
		return nil, false
	}
	out := make([]string, len(added))
	for i, l := range added {
		out[i] = l
		ws := leadingBlanks(l)
		if jstext.Trim(l) == "" || ws == 0 {
			continue
		}
		if n := ws - offset; n >= 0 {
			out[i] = strings.Repeat("\t", n/width) + strings.Repeat(" ", n%width) + l[ws:]
		}
	}
	return out, true
}

// shift indents every non-blank line by delta characters of char (or
// removes up to −delta of its leading blanks).
func shift(lines []string, delta int, char byte) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case jstext.Trim(l) == "":
			out[i] = l
		case delta > 0:
			out[i] = strings.Repeat(string(char), delta) + l
		default:
			out[i] = l[min(-delta, leadingBlanks(l)):]
		}
	}
	return out
}

// firstIndentChar is the first indentation character of lines (a space
// when none is indented).
func firstIndentChar(lines []string) byte {
	for _, l := range lines {
		if n := leadingBlanks(l); n > 0 {
			return l[0]
		}
	}
	return ' '
}

func sameTrimmed(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if jstext.Trim(a[i]) != jstext.Trim(b[i]) {
			return false
		}
	}
	return true
}
