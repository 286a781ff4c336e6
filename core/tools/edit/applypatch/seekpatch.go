package applypatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// A hunk's lines are found with omp's passes: after the four predicates
// (with a comment-marker-blind pass before the punctuation one), a line
// may begin with the hunk's line (prefix), contain it
// (substring: at least six characters and 30% of the line), or be
// similar enough (a window at least 92% similar, see fuzzyLine); last, the
// lines are looked for as text (see replaceAsText). The later passes may
// match in several places: the search then reports how many, and the
// caller refuses the hunk unless its line hint picks one.

const (
	// sequenceThreshold is the least mean similarity a fuzzy window needs.
	sequenceThreshold = 0.92
	// dominantFloor and dominantGap: a best window this similar and this
	// far ahead of the runner-up is taken though others pass too.
	dominantFloor, dominantGap = 0.97, 0.08
	// hintWindow: a line hint picks the one match within this many lines.
	hintWindow = 200
	// substringMinLen and substringMinRatio bound the substring pass.
	substringMinLen, substringMinRatio = 6, 0.3
)

// seekResult is where a patch-mode search found a hunk's lines.
type seekResult struct {
	at       int    // the first match (-1: none)
	count    int    // how many places matched (0 or 1: unambiguous)
	indices  []int  // the first maxPreviews of them
	strategy string // the pass that matched, as omp names it ("" for the text pass)
}

func (r seekResult) found() bool     { return r.at >= 0 }
func (r seekResult) ambiguous() bool { return r.count > 1 }

// seekPatch searches lines for pattern from start (from the tail first
// with eof) through omp's passes, strictest first.
func seekPatch(lines, pattern []string, start int, eof bool) seekResult {
	none := seekResult{at: -1}
	if len(pattern) == 0 {
		return seekResult{at: start, strategy: "exact"}
	}
	if len(pattern) > len(lines) {
		return none
	}
	last := len(lines) - len(pattern)
	from := max(start, 0)
	if eof {
		from = last
	}
	if r := linePasses(lines, pattern, from, last); r.found() {
		return r
	}
	if eof && from > start {
		if r := linePasses(lines, pattern, max(start, 0), last); r.found() {
			return r
		}
	}
	if r := fuzzyPass(lines, pattern, from, last, max(start, 0), eof); r.found() {
		return r
	}
	return textPass(lines, pattern, max(start, 0))
}

// linePasses runs the line-by-line passes over positions from..to.
func linePasses(lines, pattern []string, from, to int) seekResult {
	exact := []struct {
		name string
		eq   func(a, b string) bool
	}{
		{"exact", predicates[0]}, {"trim-trailing", predicates[1]}, {"trim", predicates[2]},
		{"comment-prefix", func(a, b string) bool { return uncommented(a) == uncommented(b) }},
		{"unicode", predicates[3]},
	}
	for _, p := range exact {
		for i := from; i <= to; i++ {
			if matchesAt(lines, pattern, i, p.eq) {
				return seekResult{at: i, strategy: p.name}
			}
		}
	}
	partial := []struct {
		name string
		eq   func(line, want string) bool
	}{{"prefix", startsLike}, {"substring", containsLike}}
	for _, p := range partial {
		r := seekResult{at: -1, strategy: p.name}
		for i := from; i <= to; i++ {
			if matchesAt(lines, pattern, i, p.eq) {
				r.note(i)
			}
		}
		if r.found() {
			return r
		}
	}
	return seekResult{at: -1}
}

// note records a match at i.
func (r *seekResult) note(i int) {
	if r.at < 0 {
		r.at = i
	}
	r.count++
	if len(r.indices) < maxPreviews {
		r.indices = append(r.indices, i)
	}
}

// fuzzyPass scores every window (from..last, then start..from−1 with
// eof) and takes the best at least sequenceThreshold similar.
func fuzzyPass(lines, pattern []string, from, last, start int, eof bool) seekResult {
	r := seekResult{at: -1, strategy: "fuzzy"}
	best, second, bestAt := 0.0, 0.0, -1
	have, want := fuzzyLines(lines), fuzzyLines(pattern)
	score := func(i int) {
		total := 0.0
		for j := range want {
			total += similarity(have[i+j], want[j])
		}
		s := total / float64(len(pattern))
		if s >= sequenceThreshold {
			r.note(i)
		}
		if s > best {
			second, best, bestAt = best, s, i
		} else if s > second {
			second = s
		}
	}
	for i := from; i <= last; i++ {
		score(i)
	}
	if eof {
		for i := start; i < from; i++ {
			score(i)
		}
	}
	if bestAt < 0 || best < sequenceThreshold {
		return seekResult{at: -1}
	}
	r.at = bestAt
	if r.count > 1 && best >= dominantFloor && best-second >= dominantGap {
		r.count, r.strategy = 1, "fuzzy-dominant"
	}
	return r
}

// textPass looks for the lines as text in lines[start:]: once verbatim,
// or as the only window of whole lines at least sequenceThreshold
// similar (see bestWindow). Several places give a count without a match.
func textPass(lines, pattern []string, start int) seekResult {
	if start >= len(lines) {
		return seekResult{at: -1}
	}
	content, target := strings.Join(lines[start:], "\n"), strings.Join(pattern, "\n")
	if target == "" {
		return seekResult{at: -1}
	}
	if i := strings.Index(content, target); i >= 0 {
		if n := strings.Count(content, target); n > 1 {
			return seekResult{at: -1, count: n}
		}
		return seekResult{at: start + strings.Count(content[:i], "\n"), count: 1, strategy: "character"}
	}
	m := bestWindow(lines[start:], pattern, sequenceThreshold)
	switch {
	case m.above == 1:
		return seekResult{at: start + m.start, count: 1, strategy: "character"}
	case dominant(m):
		return seekResult{at: start + m.start, count: m.above, strategy: "character"}
	}
	return seekResult{at: -1, count: m.above}
}

// seekWithHint is seekPatch from cursor, then from the line hint (hint,
// 0-based, −1 for none) when that is ambiguous or finds nothing, then
// from the top of the file (hunks out of order).
func seekWithHint(lines, pattern []string, cursor, hint int, eof bool) seekResult {
	primary := seekPatch(lines, pattern, cursor, eof)
	if primary.ambiguous() && hint >= 0 && hint != cursor {
		if hinted := seekPatch(lines, pattern, hint, eof); hinted.found() || hinted.ambiguous() {
			return hinted
		}
	}
	if primary.found() || primary.ambiguous() {
		return primary
	}
	if hint >= 0 && hint != cursor {
		if hinted := seekPatch(lines, pattern, hint, eof); hinted.found() || hinted.ambiguous() {
			return hinted
		}
	}
	if cursor != 0 {
		if top := seekPatch(lines, pattern, 0, eof); top.found() || top.ambiguous() {
			return top
		}
	}
	return primary
}

// pickByHint resolves an ambiguous result to the one match within
// hintWindow lines of hint, when there is exactly one.
func pickByHint(r seekResult, hint int) seekResult {
	if !r.ambiguous() || hint < 0 {
		return r
	}
	pick := -1
	for _, i := range r.indices {
		if abs(i-hint) <= hintWindow {
			if pick >= 0 {
				return r
			}
			pick = i
		}
	}
	if pick >= 0 {
		r.at, r.count = pick, 1
	}
	return r
}

func abs(n int) int { return max(n, -n) }

// matchesError refuses a hunk found in several places, showing the
// first few.
func matchesError(lines []string, r seekResult, shown string) error {
	return fmt.Errorf("Found %d matches for the text in %s.%s\n\nAdd more surrounding context or additional @@ anchors to make it unique.", r.count, shown, r.describe(lines))
}

// describe is what an ambiguity error says of the matches: the pass that
// found them and the first few places, each with two lines either side.
func (r seekResult) describe(lines []string) string {
	var b strings.Builder
	if r.strategy != "" {
		b.WriteString(" Matching strategy: " + r.strategy + ".")
	}
	for _, i := range r.indices {
		b.WriteString("\n\n")
		b.WriteString(preview(lines, i, 2))
	}
	if len(r.indices) > 0 && r.count > len(r.indices) {
		fmt.Fprintf(&b, " (showing first %d of %d)", len(r.indices), r.count)
	}
	return b.String()
}

// startsLike: the line, normalised, begins with the wanted one.
func startsLike(line, want string) bool {
	l, w := fuzzyLine(line), fuzzyLine(want)
	if w == "" {
		return l == ""
	}
	return strings.HasPrefix(l, w)
}

// containsLike: the line, normalised, contains the wanted one, which is
// long enough and a large enough part of it.
func containsLike(line, want string) bool {
	l, w := fuzzyLine(line), fuzzyLine(want)
	if w == "" {
		return l == ""
	}
	if len([]rune(w)) < substringMinLen || !strings.Contains(l, w) {
		return false
	}
	return float64(len([]rune(w)))/float64(max(1, len([]rune(l)))) >= substringMinRatio
}

// uncommented is a line without leading blanks and one comment marker
// (/*, */, //, *, #, ;, or "/ ").
func uncommented(line string) string {
	t := strings.TrimLeftFunc(line, jstext.IsSpace)
	for _, m := range []string{"/*", "*/", "//", "*", "#", ";"} {
		if s, ok := strings.CutPrefix(t, m); ok {
			return strings.TrimLeftFunc(s, jstext.IsSpace)
		}
	}
	if strings.HasPrefix(t, "/ ") {
		t = t[1:]
	}
	return strings.TrimLeftFunc(t, jstext.IsSpace)
}

// placePatchChunk places one patch-mode hunk, searching from cursor: its
// locators first (see findLocators; missing or ambiguous ones are passed
// over when the hunk's lines are found once), then a pure addition goes
// after them, before its line hint or at the end, and other hunks are
// found by locatePatchChunk. It returns the replacement (nil for a hunk
// of context only) and where the next hunk's search starts.
func placePatchChunk(lines []string, c Chunk, cursor int, shown string) (*replacement, int, error) {
	located := len(c.Locators) > 0
	locatorAt := -1 // the locator's line, when found (first of several)
	if c.LineHint > 0 && !located && !c.HasContextLines {
		cursor = max(0, min(c.LineHint-1, len(lines)-1))
	}
	if located {
		r := findLocators(lines, c.Locators, cursor, c.LineHint)
		locatorAt = r.at
		if !r.found() || r.ambiguous() {
			at, ok := placeByLines(lines, c, cursor)
			if !ok {
				return nil, 0, locatorError(lines, r, c.Locators, shown)
			}
			cursor = at
		} else {
			// The hunk's lines may start on the locator's line: when the
			// first is the locator itself, or the locator is nested or of
			// many words. A pure addition goes after it.
			innermost := jstext.Trim(c.Locators[len(c.Locators)-1])
			nested := len(c.Locators) > 1 || len(strings.Fields(jstext.Trim(c.Locators[0]))) > 2
			cursor = r.at + 1
			if len(c.OldLines) > 0 && (nested || jstext.Trim(c.OldLines[0]) == innermost) {
				cursor = r.at
			}
		}
	}
	if len(c.OldLines) == 0 {
		at := endOfText(lines)
		switch {
		case located:
			at = cursor
		case c.LineHint > len(lines)+1:
			return nil, 0, fmt.Errorf("Line hint %d is out of range for insertion in %s (file has %d lines)", c.LineHint, shown, len(lines))
		case c.LineHint > 0:
			at = c.LineHint - 1
		}
		return &replacement{at, 0, c.NewLines}, cursor, nil
	}
	at, pattern, repl, err := locatePatchChunk(lines, c, cursor, locatorAt, shown)
	if err != nil {
		return nil, 0, err
	}
	next := at + len(pattern)
	if slices.Equal(pattern, repl) { // a hunk of context only just moves on
		return nil, next, nil
	}
	return &replacement{at, len(pattern), reindentLines(pattern, lines[at:next], repl)}, next, nil
}

// placeByLines finds a hunk whose locator failed by its lines alone,
// which must then occur once.
func placeByLines(lines []string, c Chunk, cursor int) (int, bool) {
	if len(c.OldLines) == 0 {
		return 0, false
	}
	hint := -1
	if c.LineHint > 0 {
		// omp passes the 1-based hint here when it lies before the cursor.
		hint = c.LineHint - 1
		if hint < cursor {
			hint = c.LineHint
		}
	}
	r := seekWithHint(lines, c.OldLines, cursor, hint, false)
	if r.found() && !r.ambiguous() {
		if r.at+1 <= len(lines)-len(c.OldLines) && seekPatch(lines, c.OldLines, r.at+1, false).found() {
			return 0, false
		}
		return r.at, true
	}
	for _, v := range hunkVariants(c) {
		if len(v.old) == 0 {
			continue
		}
		if vr := seekWithHint(lines, v.old, cursor, hint, false); vr.found() && !vr.ambiguous() {
			return vr.at, true
		}
	}
	return 0, false
}

// locatePatchChunk finds where a patch-mode hunk with old lines applies,
// searching from cursor, and returns the lines it replaces there (the
// hunk's, less a final blank line the file's end stands for) and their
// replacement. A hunk of only removed and added lines without locator or
// line hint must match once.
func locatePatchChunk(lines []string, c Chunk, cursor, locatorAt int, shown string) (int, []string, []string, error) {
	unlocated := len(c.Locators) == 0 && !c.HasContextLines
	hint := -1
	if c.LineHint > 0 && c.LineHint-1 >= cursor {
		hint = c.LineHint - 1
	}
	pattern, repl := c.OldLines, c.NewLines
	r := seekWithHint(lines, pattern, cursor, hint, c.EndOfFile)
	if !r.found() && pattern[len(pattern)-1] == "" {
		pattern, repl = withoutFinalBlank(pattern, repl)
		r = seekWithHint(lines, pattern, cursor, hint, c.EndOfFile)
	}
	variants := hunkVariants(c)
	if !r.found() || r.ambiguous() {
		for _, v := range variants {
			if len(v.old) == 0 {
				continue
			}
			if vr := seekWithHint(lines, v.old, cursor, hint, c.EndOfFile); vr.found() && !vr.ambiguous() {
				pattern, repl, r = v.old, v.new, vr
				break
			}
		}
	}
	if !r.found() && locatorAt >= 0 {
		// A one-line change the file has near the locator.
		for _, v := range variants {
			if len(v.old) != 1 || len(v.new) != 1 {
				continue
			}
			if at := nearLocator(lines, v.old[0], locatorAt, holdsTrimmed(c.NewLines, v.old[0])); at >= 0 {
				pattern, repl, r = v.old, v.new, seekResult{at: at}
				break
			}
		}
	}
	if r.found() && locatorAt >= 0 && len(pattern) == 1 && countTrimmed(lines, pattern[0]) > 1 {
		// A single line that occurs more than once: the one nearest after
		// the locator.
		if at := nearLocator(lines, pattern[0], locatorAt, holdsTrimmed(c.NewLines, pattern[0])); at >= 0 {
			r = seekResult{at: at}
		}
	}
	if r.ambiguous() {
		if hint < 0 && c.LineHint > 0 {
			hint = c.LineHint - 1
		}
		r = pickByHint(r, hint)
	}
	switch {
	case r.ambiguous():
		return 0, nil, nil, matchesError(lines, r, shown)
	case !r.found():
		return 0, nil, nil, notFoundError(lines, pattern, cursor, c, shown)
	}
	if unlocated && c.LineHint == 0 && !c.EndOfFile {
		if again := seekPatch(lines, pattern, r.at+1, false); again.found() {
			return 0, nil, nil, fmt.Errorf("Found 2 occurrences in %s:\n\n%s\n\n%s\n\nAdd more context lines to disambiguate.",
				shown, preview(lines, r.at, 2), preview(lines, again.at, 2))
		}
	}
	return r.at, pattern, repl, nil
}

// withoutFinalBlank drops a final empty line from pattern, and from repl
// when it ends with one too.
func withoutFinalBlank(pattern, repl []string) ([]string, []string) {
	pattern = pattern[:len(pattern)-1]
	if len(repl) > 0 && repl[len(repl)-1] == "" {
		repl = repl[:len(repl)-1]
	}
	return pattern, repl
}

// overlapError refuses hunks (sorted by start) that would change the
// same lines, naming both ranges.
func overlapError(reps []replacement, shown string) error {
	span := func(r replacement) string {
		if r.oldLen == 0 {
			return fmt.Sprintf("%d (insertion)", r.start+1)
		}
		return fmt.Sprintf("%d-%d", r.start+1, r.start+r.oldLen)
	}
	for i := 1; i < len(reps); i++ {
		if prev, next := reps[i-1], reps[i]; next.start < prev.start+prev.oldLen {
			return fmt.Errorf("Overlapping hunks detected in %s at lines %s and %s. Split hunks or add more context to avoid overlap.", shown, span(prev), span(next))
		}
	}
	return nil
}

// holdsTrimmed reports whether lines hold line, surrounding blanks aside.
func holdsTrimmed(lines []string, line string) bool {
	return countTrimmed(lines, line) > 0
}

// countTrimmed counts the lines equal to line, surrounding blanks aside.
func countTrimmed(lines []string, line string) int {
	want, n := jstext.Trim(line), 0
	for _, l := range lines {
		if jstext.Trim(l) == want {
			n++
		}
	}
	return n
}
