package replace

import (
	"fmt"
	"math"
	"strings"
)

// Thresholds of the reference's line-window similarity search.
const (
	// FuzzyThreshold is the similarity (0 to 1) the reference needs to
	// accept a near match; the not-found error quotes it.
	FuzzyThreshold = 0.95
	// retryThreshold is the score above which a window is scored again
	// without indentation depths, in case only the indentation differs.
	retryThreshold = 0.8
)

// closest is the file window most similar to the old text.
type closest struct {
	text       string  // the window's lines, joined
	line       int     // 1-based first line
	confidence float64 // mean line similarity, 0 to 1
	second     float64 // the next best window's score
	above      int     // windows scoring at least FuzzyThreshold
	cut        bool    // the search stopped at maxCells: the scores are of the windows seen
}

// Dominance: a near match among several is still taken when it scores at
// least dominantMin and leads the next by dominantGap, as in the reference.
const (
	dominantMin = 0.97
	dominantGap = 0.08
)

// accepted reports whether the reference would replace this window: it
// scores at least FuzzyThreshold and is the only such window, or dominates.
func (c closest) accepted() bool {
	if c.cut || c.confidence < FuzzyThreshold {
		return false
	}
	return c.above == 1 || (c.above > 1 && c.confidence >= dominantMin && c.confidence-c.second >= dominantGap)
}

// findClosest scores every window of the file as long as the old text,
// line against line after normalizeFuzzy, and returns the best. ok is
// false when the old text has more lines than the file.
func findClosest(text, oldText string) (closest, bool) {
	fileLines := strings.Split(text, "\n")
	oldLines := strings.Split(oldText, "\n")
	if oldText == "" || len(oldLines) > len(fileLines) {
		return closest{}, false
	}
	sc := newScorer(fileLines, oldLines)
	best := sc.scoreWindows(true)
	if !best.cut && best.confidence < FuzzyThreshold && best.confidence >= retryThreshold {
		flat := sc.scoreWindows(false)
		if flat.confidence > best.confidence {
			best = flat
		}
		best.cut = best.cut || flat.cut
	}
	return best, true
}

// fuzzyLines normalizes lines for scoring, each prefixed with its
// indentation depth relative to the block ("N|") when depth is set. It is
// the definition the scorer computes piecewise (and the reference the
// tests compare the scorer with).
func fuzzyLines(lines []string, depth bool) []string {
	var depths []int
	if depth {
		depths = indentDepths(lines)
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		prefix := "|"
		if depth {
			prefix = fmt.Sprintf("%d|", depths[i])
		}
		out[i] = prefix + normalizeFuzzy(l)
	}
	return out
}

// indentDepths gives each non-blank line its indentation in steps of the
// block's smallest indentation increase.
func indentDepths(lines []string) []int {
	indents := make([]int, len(lines))
	blank := make([]bool, len(lines))
	for i, l := range lines {
		indents[i] = len(l) - len(strings.TrimLeft(l, " \t"))
		blank[i] = strings.TrimSpace(l) == ""
	}
	return depthsOf(indents, blank, make([]int, len(lines)))
}

// depthsOf is indentDepths over lines' indentation widths and blankness,
// written into out.
func depthsOf(indents []int, blank []bool, out []int) []int {
	minIndent := math.MaxInt
	for i := range indents {
		if !blank[i] {
			minIndent = min(minIndent, indents[i])
		}
	}
	unit := 0
	for i := range indents {
		if step := indents[i] - minIndent; !blank[i] && step > 0 && (unit == 0 || step < unit) {
			unit = step
		}
	}
	if unit == 0 {
		unit = 1
	}
	for i := range indents {
		out[i] = 0
		if !blank[i] {
			out[i] = int(math.Floor(float64(indents[i]-minIndent)/float64(unit) + 0.5))
		}
	}
	return out
}

// fuzzyPunct maps typographic quotes and dashes to ASCII for scoring.
var fuzzyPunct = strings.NewReplacer(
	"„", `"`, "‟", `"`, "«", `"`, "»", `"`,
	"‚", "'", "‛", "'", "`", "'", "´", "'",
	"‐", "-", "‑", "-", "‒", "-", "–", "-", "—", "-", "−", "-",
)

// normalizeFuzzy trims a line, maps typographic punctuation to ASCII and
// collapses runs of blanks and tabs to one space.
func normalizeFuzzy(s string) string {
	s = fuzzyPunct.Replace(strings.TrimSpace(s))
	var b strings.Builder
	inBlank := false
	for _, r := range s {
		if r == ' ' || r == '\t' {
			if !inBlank {
				b.WriteByte(' ')
			}
			inBlank = true
			continue
		}
		inBlank = false
		b.WriteRune(r)
	}
	return b.String()
}

// similarity is 1 minus the edit distance over the longer length.
func similarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	n := max(len(ra), len(rb))
	if n == 0 {
		return 1
	}
	return 1 - float64(levenshtein(ra, rb))/float64(n)
}

func levenshtein(a, b []rune) int {
	return levenshteinWith(make([]int, len(b)+1), make([]int, len(b)+1), a, b)
}

// levenshteinWith is the edit distance of a and b computed in the two
// rows given (each at least len(b)+1 long).
func levenshteinWith(prev, cur []int, a, b []rune) int {
	prev, cur = prev[:len(b)+1], cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// replaceClosest replaces the near match the reference would accept, if
// any, re-indenting newText by the difference between the first lines'
// indentation. With all, it repeats while a near match remains and the
// replacement changes it.
//
// When nothing was replaced, first is the search's result (ok false: the
// old text is longer than the file), for the error to quote.
func replaceClosest(text, oldText, newText string, all bool) (out string, m Match, replaced bool, first closest, ok bool) {
	for {
		c, found := findClosest(text, oldText)
		if m.Count == 0 {
			first, ok = c, found
		}
		if !found || !c.accepted() {
			break
		}
		repl := newText
		if oldText != c.text {
			repl = strings.Join(reindent(strings.Split(newText, "\n"), indentOf(firstNonBlank(oldText)), indentOf(firstNonBlank(c.text))), "\n")
		}
		if repl == c.text {
			break
		}
		off := 0
		for range c.line - 1 {
			off += strings.IndexByte(text[off:], '\n') + 1
		}
		text = text[:off] + repl + text[off+len(c.text):]
		m.Count++
		m.Lines = append(m.Lines, c.line)
		if !all {
			break
		}
	}
	m.Tolerant = true
	return text, m, m.Count > 0, first, ok
}

// firstNonBlank returns the first line of s with more than white space.
func firstNonBlank(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// notFound explains a missing match as the reference does: the closest
// window, its similarity and the first line where it differs.
// c and ok are findClosest's result for text and oldText.
func notFound(text, oldText, path string, c closest, ok bool) error {
	head := fmt.Sprintf("Could not find a close enough match in %s.", path)
	if ok && c.cut {
		return &matchError{fmt.Sprintf("%s\n\nThe file (%d lines) is too large to search for a near match of %d lines of old_text; copy old_text exactly from a read of those lines.",
			head, strings.Count(text, "\n")+1, strings.Count(oldText, "\n")+1), ErrNotFound}
	}
	if !ok || c.confidence < 0 {
		return &matchError{head, ErrNotFound}
	}
	oldLine, newLine := firstDifference(strings.Split(oldText, "\n"), strings.Split(c.text, "\n"))
	hint := fmt.Sprintf("Closest match was below the %d%% similarity threshold.", percent(FuzzyThreshold))
	if c.above > 1 {
		hint = fmt.Sprintf("Found %d high-confidence matches. Provide more context to make it unique.", c.above)
	}
	return &matchError{fmt.Sprintf("%s\n\nClosest match (%d%% similar) at line %d:\n  - %s\n  + %s\n%s",
		head, percent(c.confidence), c.line, oldLine, newLine, hint), ErrNotFound}
}

// percent rounds a fraction to a whole percentage, halves up.
func percent(f float64) int { return int(math.Floor(f*100 + 0.5)) }

// firstDifference returns the first pair of lines that differ.
func firstDifference(a, b []string) (string, string) {
	at := func(s []string, i int) string {
		if i < len(s) {
			return s[i]
		}
		return ""
	}
	for i := range max(len(a), len(b)) {
		if at(a, i) != at(b, i) {
			return at(a, i), at(b, i)
		}
	}
	return at(a, 0), at(b, 0)
}
