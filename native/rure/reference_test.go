//go:build cgo

package rure

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// oddCount finds counted repetitions written with leading zeros or with
// anything but digits and commas (Rust allows spaces there, Go does not).
var oddCount = regexp.MustCompile(`\{0\d|\{\d+,0\d|\{[^}]*[^\d,}][^}]*\}`)

// refHit is one hit of the pure-Go reference line matcher.
type refHit struct {
	Line, Start, End int
	Spans            []Span
}

// refFindLines is the slow oracle for LineMatcher.FindLines. Line by line
// (multiline false) it splits buf into lines and runs Go's regexp, with
// (?m), on each line alone. With multiline it runs the regexp over the
// whole buffer and groups matches into hits by the lines they cover. Either
// way, an empty buffer has no lines and the empty remainder after a final
// '\n' is not a line.
func refFindLines(re *regexp.Regexp, buf []byte, multiline bool) []refHit {
	if multiline {
		return refMultiline(re, buf)
	}
	var out []refHit
	line := 1
	for start := 0; start < len(buf); line++ {
		end := len(buf)
		if i := bytes.IndexByte(buf[start:], '\n'); i >= 0 {
			end = start + i
		}
		if ms := re.FindAllIndex(buf[start:end], -1); len(ms) > 0 {
			h := refHit{Line: line, Start: start, End: end}
			for _, m := range ms {
				h.Spans = append(h.Spans, Span{start + m[0], start + m[1]})
			}
			out = append(out, h)
		}
		start = end + 1
	}
	return out
}

func refMultiline(re *regexp.Regexp, buf []byte) []refHit {
	lineStart := func(i int) int { return bytes.LastIndexByte(buf[:i], '\n') + 1 }
	lineEnd := func(i int) int {
		if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
			return i + j
		}
		return len(buf)
	}
	var out []refHit
	for _, m := range re.FindAllIndex(buf, -1) {
		s, e := m[0], m[1]
		if s == len(buf) && (len(buf) == 0 || buf[len(buf)-1] == '\n') {
			break // not a line
		}
		last := s
		if e > s {
			last = e - 1 // a final '\n' belongs to the line it ends
		}
		ls, le := lineStart(s), lineEnd(last)
		if n := len(out); n > 0 && ls <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, le)
			out[n-1].Spans = append(out[n-1].Spans, Span{s, e})
			continue
		}
		out = append(out, refHit{
			Line: 1 + bytes.Count(buf[:ls], []byte{'\n'}), Start: ls, End: le,
			Spans: []Span{{s, e}},
		})
	}
	return out
}

// refLinesFrom converts FindLines output to the reference shape.
func refLinesFrom(h *Hits) []refHit {
	var out []refHit
	for _, l := range h.Lines {
		out = append(out, refHit{Line: l.Line, Start: l.Start, End: l.End, Spans: slices.Clone(h.Matches(l))})
	}
	return out
}

// refCount counts lines and matches the way CountLines does.
func refCount(buf []byte, hits []refHit) (lines, matches int) {
	for _, h := range hits {
		lines += 1 + bytes.Count(buf[h.Start:h.End], []byte{'\n'})
		matches += len(h.Spans)
	}
	return lines, matches
}

// unicodeSensitive reports whether a pattern uses syntax whose meaning
// differs between Rust (Unicode-aware by default) and Go (ASCII) once the
// haystack is not pure ASCII.
func unicodeSensitive(pattern string) bool {
	for _, esc := range []string{`\w`, `\W`, `\d`, `\D`, `\s`, `\S`, `\b`, `\B`} {
		if strings.Contains(pattern, esc) {
			return true
		}
	}
	return false
}

// isASCII reports whether s is pure ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// sharedSyntax reports whether pattern avoids the constructs that Go's
// regexp and Rust's regex both accept but read differently: nested
// classes and set operations inside [...], Rust's \< \> \b{...} word
// assertions, {,n} counted repetition, counts with leading zeros or spaces (a
// literal in Go), and Unicode property classes whose tables may come from
// different Unicode versions.
func sharedSyntax(pattern string) bool {
	if oddCount.MatchString(pattern) {
		return false
	}
	for _, bad := range []string{`\<`, `\>`, `\b{`, `\B{`, `{,`, `\p`, `\P`} {
		if strings.Contains(pattern, bad) {
			return false
		}
	}
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\':
			i++
		case !inClass && c == '[':
			inClass = true
			// A leading ']' (after an optional '^') is a literal in both.
			if i+1 < len(pattern) && pattern[i+1] == '^' {
				i++
			}
			if i+1 < len(pattern) && pattern[i+1] == ']' {
				i++
				if i+1 < len(pattern) && pattern[i+1] == '-' {
					return false // Go reads a range from ']', Rust does not
				}
			}
		case inClass && c == '[':
			if !strings.HasPrefix(pattern[i:], "[:") {
				return false // nested class in Rust, a literal '[' in Go
			}
			end := strings.Index(pattern[i+2:], ":]")
			if end < 0 {
				return false
			}
			i += 2 + end + 1
		case inClass && c == ']':
			inClass = false
		case inClass && (c == '&' || c == '-' || c == '~') && i+1 < len(pattern) && pattern[i+1] == c:
			return false // class set operation in Rust
		}
	}
	return true
}
