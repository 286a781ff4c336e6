package read

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Selector is the line selection at the end of a read path.
type Selector struct {
	Raw   bool // ":raw": verbatim text, no anchors or line numbers
	Start int  // first requested line, 1-based; 0 = no line selection
	End   int  // last requested line, inclusive; 0 = open-ended
}

// HasLines reports whether the selector names lines.
func (s Selector) HasLines() bool { return s.Start > 0 }

// String renders the selector in its canonical suffix form ("" when empty).
func (s Selector) String() string {
	var b strings.Builder
	if s.Start > 0 {
		b.WriteString(":" + strconv.Itoa(s.Start))
		if s.End > 0 {
			b.WriteString("-" + strconv.Itoa(s.End))
		}
	}
	if s.Raw {
		b.WriteString(":raw")
	}
	return b.String()
}

// SplitSelector splits a read target into its path and trailing selector.
//
// At most two trailing ":"-separated suffixes are recognised: one "raw"
// and one line selection — N or LN (from line N on), A-B (lines A to B), or
// A+C (C lines from A), each number optionally prefixed by "L". Anything
// else after a ':' stays part of the path, so "a.zip:dir/f" and "x:y" pass
// through untouched. A suffix that has a selector's shape but an invalid
// value (line 0, a zero count, a range ending before it starts) is an
// error rather than part of the path.
func SplitSelector(target string) (path string, sel Selector, err error) {
	return splitSuffixes(target, nil)
}

// splitSuffixes does SplitSelector's work; keep, when set, says that the
// line-selection-shaped suffix after the ':' at i of s belongs to the
// target (a URL's port, for one).
func splitSuffixes(target string, keep func(s string, i int) bool) (path string, sel Selector, err error) {
	path = target
	for range 2 {
		i := strings.LastIndexByte(path, ':')
		if i <= 0 { // no suffix, or nothing before it
			break
		}
		suffix := path[i+1:]
		if suffix == "raw" && !sel.Raw {
			sel.Raw = true
			path = path[:i]
			continue
		}
		if sel.Start > 0 || keep != nil && keep(path, i) {
			break
		}
		start, end, ok, err := parseLines(suffix)
		if err != nil {
			return "", Selector{}, err
		}
		if !ok {
			break
		}
		sel.Start, sel.End = start, end
		path = path[:i]
	}
	return path, sel, nil
}

// parseLines parses N, A-B or A+C (numbers optionally prefixed by "L").
// ok is false when s does not have that shape.
func parseLines(s string) (start, end int, ok bool, err error) {
	a, rest, okA := number(s)
	if !okA {
		return 0, 0, false, nil
	}
	if rest == "" {
		if a == 0 {
			return 0, 0, false, zeroLine()
		}
		return a, 0, true, nil
	}
	op := rest[0]
	if op != '-' && op != '+' {
		return 0, 0, false, nil
	}
	b, tail, okB := number(rest[1:])
	if !okB || tail != "" {
		return 0, 0, false, nil
	}
	if a == 0 {
		return 0, 0, false, zeroLine()
	}
	if op == '+' {
		if b < 1 {
			return 0, 0, false, fmt.Errorf("Line count in :%s must be at least 1; use :%d+1 to read one line.", s, a)
		}
		return a, min(a+b-1, maxSelectorLine), true, nil
	}
	if b < a {
		return 0, 0, false, fmt.Errorf("Line range :%s ends before it starts; use :%d-%d.", s, b, a)
	}
	return a, b, true, nil
}

// maxSelectorLine bounds selector numbers (at most 12 digits) so arithmetic
// cannot overflow; an A+C end past it is clamped.
const maxSelectorLine = 999_999_999_999

// number reads an optional "L" and a run of decimal digits.
func number(s string) (n int, rest string, ok bool) {
	s = strings.TrimPrefix(s, "L")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 12 {
		return 0, s, false
	}
	n, _ = strconv.Atoi(s[:i])
	return n, s[i:], true
}

func zeroLine() error {
	return errors.New("Line selector 0 is invalid; lines are 1-indexed. Use :1.")
}
