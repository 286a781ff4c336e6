package replace

import (
	"strconv"
	"strings"
)

// maxCells bounds the near-match search: the edit-distance cells computed
// for one old text over one file (about a second of work). Past it the
// search stops and no near match is taken; the error says why.
var maxCells int64 = 200_000_000

// pruneSlack keeps the pruning conservative against the rounding of sums
// taken in a different order than the score's.
const pruneSlack = 1e-9

// scorer scores the windows of a file against an old text, line by line,
// with each line normalised once (fuzzyLines defines the scores; the
// tests hold the two equal). A window whose score, bounded above by the
// lines' length differences, cannot change the result is skipped.
type scorer struct {
	fileLines []string
	file      []preparedLine
	old       []preparedLine
	cells     int64 // edit-distance cells computed so far

	depths    []int // the window's indentation depths
	indents   []int
	blank     []bool
	a, b      []rune // the two lines compared, prefixes included
	prev, cur []int  // levenshtein rows
}

// preparedLine is a line normalised for scoring, without its depth prefix.
type preparedLine struct {
	norm   []rune
	indent int
	blank  bool
}

func prepareLines(lines []string) []preparedLine {
	out := make([]preparedLine, len(lines))
	for i, l := range lines {
		out[i] = preparedLine{
			norm:   []rune(normalizeFuzzy(l)),
			indent: len(l) - len(strings.TrimLeft(l, " \t")),
			blank:  strings.TrimSpace(l) == "",
		}
	}
	return out
}

func newScorer(fileLines, oldLines []string) *scorer {
	n := len(oldLines)
	return &scorer{
		fileLines: fileLines, file: prepareLines(fileLines), old: prepareLines(oldLines),
		depths: make([]int, n), indents: make([]int, n), blank: make([]bool, n),
	}
}

// prefixed writes line's depth prefix ("N|", or "|" without depth) and
// its normalised runes into buf.
func prefixed(buf []rune, depth int, withDepth bool, line preparedLine) []rune {
	buf = buf[:0]
	if withDepth {
		for _, r := range strconv.Itoa(depth) {
			buf = append(buf, r)
		}
	}
	buf = append(buf, '|')
	return append(buf, line.norm...)
}

// prefixLen is len(prefixed(...)) without building it.
func prefixLen(depth int, withDepth bool, line preparedLine) int {
	n := 1 + len(line.norm)
	if withDepth {
		n += len(strconv.Itoa(depth))
	}
	return n
}

// blockDepths returns the depths of lines, as indentDepths does.
func (s *scorer) blockDepths(lines []preparedLine) []int {
	for i, l := range lines {
		s.indents[i], s.blank[i] = l.indent, l.blank
	}
	return depthsOf(s.indents, s.blank, s.depths)
}

// lineBound is the highest similarity two lines of these lengths can
// have: the edit distance is at least the difference of the lengths.
func lineBound(la, lb int) float64 {
	n := max(la, lb)
	if n == 0 {
		return 1
	}
	d := la - lb
	if d < 0 {
		d = -d
	}
	return 1 - float64(d)/float64(n)
}

// scoreWindows is the window search of findClosest.
func (s *scorer) scoreWindows(withDepth bool) closest {
	n := len(s.old)
	wantDepths := make([]int, n)
	if withDepth {
		copy(wantDepths, s.blockDepths(s.old))
	}
	wantLen := make([]int, n)
	for i, l := range s.old {
		wantLen[i] = prefixLen(wantDepths[i], withDepth, l)
	}
	bounds := make([]float64, n+1) // bounds[i]: the sum of the bounds of lines i.. of the window
	best := closest{confidence: -1, second: -1}
	for start := 0; start+n <= len(s.file); start++ {
		window := s.file[start : start+n]
		var depths []int
		if withDepth {
			depths = s.blockDepths(window)
		}
		depthAt := func(i int) int {
			if depths == nil {
				return 0
			}
			return depths[i]
		}
		bounds[n] = 0
		for i := n - 1; i >= 0; i-- {
			bounds[i] = bounds[i+1] + lineBound(wantLen[i], prefixLen(depthAt(i), withDepth, window[i]))
		}
		// A window changes the result only when it scores at least the
		// threshold or above the second best.
		matters := func(sum float64) bool {
			avg := (sum + pruneSlack) / float64(n)
			return avg >= FuzzyThreshold || avg > best.second
		}
		if !matters(bounds[0]) {
			continue
		}
		score, pruned := 0.0, false
		for i := range n {
			if s.cells > maxCells {
				best.cut = true
				return best
			}
			s.a = prefixed(s.a, wantDepths[i], withDepth, s.old[i])
			s.b = prefixed(s.b, depthAt(i), withDepth, window[i])
			score += s.similarity(s.a, s.b)
			if !matters(score + bounds[i+1]) {
				pruned = true
				break
			}
		}
		if pruned {
			continue
		}
		score /= float64(n)
		if score >= FuzzyThreshold {
			best.above++
		}
		if score > best.confidence {
			best.second = best.confidence
			best.text, best.line, best.confidence = strings.Join(s.fileLines[start:start+n], "\n"), start+1, score
		} else if score > best.second {
			best.second = score
		}
	}
	return best
}

// similarity is 1 minus the edit distance over the longer length, as the
// package's similarity, on the scorer's buffers.
func (s *scorer) similarity(a, b []rune) float64 {
	n := max(len(a), len(b))
	if n == 0 {
		return 1
	}
	s.cells += int64(len(a)) * int64(len(b))
	if cap(s.prev) < len(b)+1 {
		s.prev, s.cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	return 1 - float64(levenshteinWith(s.prev, s.cur, a, b))/float64(n)
}
