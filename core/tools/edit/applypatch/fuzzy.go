package applypatch

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// Similarity scoring for patch mode, with omp's numbers: two lines are
// compared by their Levenshtein distance over the longer length, after
// fuzzyLine normalises them; a stretch of lines scores the mean of its
// lines' similarities.
const (
	// charMatchThreshold is the similarity a window must reach for a
	// single context-free hunk to be placed by fuzzy matching; when none
	// does, relaxedCharThreshold is tried.
	charMatchThreshold   = 0.95
	relaxedCharThreshold = 0.92
	// depthFallbackFloor: a best window below the threshold but at least
	// this similar is scored again without indentation depths.
	depthFallbackFloor = 0.8
	// previewMaxLen is the longest line an error's preview shows whole.
	previewMaxLen = 80
	// maxPreviews is how many places an ambiguity error shows.
	maxPreviews = 5
)

// fuzzyLine is a line as the similarity score sees it: trimmed, a few
// look-alike quotes and dashes folded to ASCII, runs of blanks and tabs
// made one space. The folded set is omp's, which leaves curly double
// quotes alone.
func fuzzyLine(line string) string {
	t := jstext.Trim(line)
	if t == "" {
		return ""
	}
	var b strings.Builder
	blank := false
	for _, r := range t {
		switch r {
		case '\u201E', '\u201F', '\u00AB', '\u00BB':
			r = '"'
		case '\u201A', '\u201B', '`', '\u00B4':
			r = '\''
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212':
			r = '-'
		}
		if r == ' ' || r == '\t' {
			if !blank {
				b.WriteByte(' ')
			}
			blank = true
			continue
		}
		blank = false
		b.WriteRune(r)
	}
	return b.String()
}

// maxScoredCells bounds the work of one similarity: two lines whose
// lengths multiply to more (lines of a minified file, say) count as
// unlike unless equal, where omp would spend minutes on them.
const maxScoredCells = 4_000_000

// similarity is 1 − Levenshtein distance / the longer length, in code
// points (1 for two empty strings).
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	ra, rb := []rune(a), []rune(b)
	longest := max(len(ra), len(rb))
	if longest == 0 {
		return 1
	}
	if len(ra)*len(rb) > maxScoredCells {
		return 0
	}
	return 1 - float64(levenshtein(ra, rb))/float64(longest)
}

// levenshtein is the edit distance between a and b.
func levenshtein(a, b []rune) int {
	if len(a) == 0 {
		return len(b)
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
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

// leadingBlanks counts the spaces and tabs a line starts with.
func leadingBlanks(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// depthLines normalises lines for window scoring (see fuzzyLine, whose
// results flat holds): each is prefixed with its indentation depth
// relative to the block (in units of the smallest indentation step), or
// with nothing when withDepth is false.
func depthLines(lines, flat []string, withDepth bool) []string {
	out := make([]string, len(lines))
	var depths []int
	if withDepth {
		depths = relativeDepths(lines)
	}
	for i := range lines {
		prefix := "|"
		if withDepth {
			prefix = strconv.Itoa(depths[i]) + "|"
		}
		out[i] = prefix + flat[i]
	}
	return out
}

// relativeDepths is each line's indentation above the block's least, in
// steps of the smallest non-zero difference (0 for blank lines).
func relativeDepths(lines []string) []int {
	least, found := math.MaxInt, false
	for _, l := range lines {
		if jstext.Trim(l) != "" {
			least, found = min(least, leadingBlanks(l)), true
		}
	}
	if !found {
		least = 0
	}
	unit := math.MaxInt
	for _, l := range lines {
		if jstext.Trim(l) != "" {
			if step := leadingBlanks(l) - least; step > 0 {
				unit = min(unit, step)
			}
		}
	}
	if unit == math.MaxInt {
		unit = 1
	}
	out := make([]int, len(lines))
	for i, l := range lines {
		if jstext.Trim(l) != "" {
			out[i] = int(math.Round(float64(leadingBlanks(l)-least) / float64(unit)))
		}
	}
	return out
}

// windowMatch is the best-scoring window of a fuzzy search.
type windowMatch struct {
	start      int     // 0-based index of the window's first line
	confidence float64 // its mean similarity
	found      bool    // a window was scored at all
	above      int     // how many windows reached the threshold
	second     float64 // the runner-up's score
}

// bestWindow scores every window of len(target) lines of content against
// target (see depthLines) and keeps the best; a best just under the
// threshold is scored again without depths when that is closer.
func bestWindow(content, target []string, threshold float64) windowMatch {
	if len(target) == 0 || len(target) > len(content) {
		return windowMatch{}
	}
	m := scoreWindows(content, target, threshold, true)
	if m.found && m.confidence < threshold && m.confidence >= depthFallbackFloor {
		if flat := scoreWindows(content, target, threshold, false); flat.confidence > m.confidence {
			m = flat
		}
	}
	return m
}

func scoreWindows(content, target []string, threshold float64, withDepth bool) windowMatch {
	want := depthLines(target, fuzzyLines(target), withDepth)
	flat := fuzzyLines(content)
	m := windowMatch{confidence: -1, second: -1}
	for s := 0; s+len(target) <= len(content); s++ {
		got := depthLines(content[s:s+len(target)], flat[s:s+len(target)], withDepth)
		score := 0.0
		for i := range want {
			score += similarity(want[i], got[i])
		}
		score /= float64(len(target))
		if score >= threshold {
			m.above++
		}
		if score > m.confidence {
			m.second, m.confidence, m.start, m.found = m.confidence, score, s, true
		} else if score > m.second {
			m.second = score
		}
	}
	return m
}

// closestSequence is where pattern comes nearest in lines at or after
// start (tried from the tail first with eof), by the mean similarity of
// fuzzyLine forms; ok is false when nothing scores above 0.
func closestSequence(lines, pattern []string, start int, eof bool) (at int, confidence float64, ok bool) {
	if len(pattern) == 0 || len(pattern) > len(lines) {
		return 0, 0, false
	}
	last := len(lines) - len(pattern)
	from := max(start, 0)
	if eof {
		from = last
	}
	have, want := fuzzyLines(lines), fuzzyLines(pattern)
	score := func(i int) float64 {
		total := 0.0
		for j := range want {
			total += similarity(have[i+j], want[j])
		}
		return total / float64(len(pattern))
	}
	consider := func(i int) {
		if s := score(i); s > confidence {
			at, confidence, ok = i, s, true
		}
	}
	for i := from; i <= last; i++ {
		consider(i)
	}
	if eof {
		for i := max(start, 0); i < from; i++ {
			consider(i)
		}
	}
	return at, confidence, ok
}

// percent renders a similarity as omp does: a whole percentage, halves
// rounded up.
func percent(confidence float64) int { return int(math.Floor(confidence*100 + 0.5)) }

// preview renders lines around index (context lines either side) as
// "  N | text", with lines over previewMaxLen characters cut short.
func preview(lines []string, index, context int) string {
	from, to := max(0, index-context), min(len(lines), index+context+1)
	var b strings.Builder
	for i := from; i < to; i++ {
		if i > from {
			b.WriteByte('\n')
		}
		l := lines[i]
		if utf8.RuneCountInString(l) > previewMaxLen {
			l = string([]rune(l)[:previewMaxLen-1]) + "…"
		}
		fmt.Fprintf(&b, "  %d | %s", i+1, l)
	}
	return b.String()
}

// fuzzyLines is fuzzyLine of every line.
func fuzzyLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fuzzyLine(l)
	}
	return out
}
