package grep

import (
	"bytes"
	"errors"
	"regexp"
	"regexp/syntax"
	"slices"

	"github.com/gopi-agent/gopi/native/rure"
)

// goMatcher is the pure-Go engine, used where cgo is off and as the slow
// reference the native engine is tested against. It searches line by line,
// which gives line semantics directly: a match can never contain '\n'.
type goMatcher struct {
	re        *regexp.Regexp
	multiline bool
	crosses   bool // multiline and the pattern can match '\n'
}

func newGoMatcher(pattern string, cfg matcherConfig) (*goMatcher, error) {
	if !cfg.multiline && bytes.ContainsRune([]byte(pattern), '\n') {
		return nil, errors.New("regex parse error: a literal line terminator is only allowed in multiline patterns")
	}
	flags := "(?m)"
	if cfg.ignoreCase {
		flags = "(?mi)"
	}
	// Check the user's pattern alone first so error positions refer to it.
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		return nil, compileError(pattern, err)
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil {
		return nil, compileError(pattern, err)
	}
	crosses := false
	if cfg.multiline {
		parsed, err := syntax.Parse(flags+pattern, syntax.Perl)
		if err != nil {
			return nil, compileError(pattern, err)
		}
		crosses = canMatchNewline(parsed.Simplify())
	}
	return &goMatcher{re: re, multiline: cfg.multiline, crosses: crosses}, nil
}

// canMatchNewline reports whether some match of re can contain '\n': a
// literal or class in it holds '\n'. Empty-width assertions match no text.
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return slices.Contains(re.Rune, '\n')
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	case syntax.OpAnyChar:
		return true
	case syntax.OpRepeat:
		if re.Max == 0 {
			return false
		}
	}
	return slices.ContainsFunc(re.Sub, canMatchNewline)
}

func (g *goMatcher) close() {}

func (g *goMatcher) crossesLines() bool { return g.crosses }

func (g *goMatcher) isMatch(buf []byte) (bool, error) {
	var h rure.Hits
	g.findLines(buf, 1, false, &h)
	return len(h.Lines) > 0, nil
}

// countMatchingLines is countLines' line total, found without listing
// the matches: a line is looked at up to its first match (a 64 MiB line of
// 'a' searched for `a` listed 67 million spans).
func (g *goMatcher) countMatchingLines(buf []byte) (int, error) {
	if g.multiline {
		lines, _, err := g.countLines(buf)
		return lines, err
	}
	n := 0
	forEachLine(buf, func(_, start, end int) bool {
		if g.re.Match(buf[start:end]) {
			n++
		}
		return true
	})
	return n, nil
}

func (g *goMatcher) countLines(buf []byte) (lines, matches int, err error) {
	var h rure.Hits
	g.findLines(buf, 0, false, &h)
	return len(h.Lines), len(h.Spans), nil
}

func (g *goMatcher) findLines(buf []byte, maxLines int, _ bool, h *rure.Hits) error {
	if g.multiline {
		g.findMultiline(buf, maxLines, h)
		return nil
	}
	forEachLine(buf, func(lineNo, start, end int) bool {
		line := buf[start:end]
		if !g.re.Match(line) {
			return true
		}
		lo := len(h.Spans)
		for _, m := range g.re.FindAllIndex(line, -1) {
			h.Spans = append(h.Spans, rure.Span{Start: start + m[0], End: start + m[1]})
		}
		h.Lines = append(h.Lines, rure.LineHit{Line: lineNo, Start: start, End: end, SpanLo: lo, SpanHi: len(h.Spans)})
		return maxLines <= 0 || len(h.Lines) < maxLines
	})
	return nil
}

// forEachLine calls fn for every line of buf until fn returns false. Lines
// exclude their '\n'; an empty buffer has no lines, and the empty text after
// a trailing newline is not a line.
func forEachLine(buf []byte, fn func(lineNo, start, end int) bool) {
	for lineNo, start := 1, 0; start < len(buf); lineNo++ {
		end := len(buf)
		if i := bytes.IndexByte(buf[start:], '\n'); i >= 0 {
			end = start + i
		}
		if !fn(lineNo, start, end) {
			return
		}
		start = end + 1
	}
}

// findMultiline searches the whole buffer; a hit covers every line its
// match touches, and a match starting on the last line of the previous hit
// joins that hit.
func (g *goMatcher) findMultiline(buf []byte, maxLines int, h *rure.Hits) {
	lineNo, lineStart, counted := 1, 0, 0
	for _, m := range g.re.FindAllIndex(buf, -1) {
		if m[0] == len(buf) && (len(buf) == 0 || buf[len(buf)-1] == '\n') {
			break // the empty text after a trailing newline is not a line
		}
		for {
			i := bytes.IndexByte(buf[counted:m[0]], '\n')
			if i < 0 {
				break
			}
			lineNo++
			lineStart = counted + i + 1
			counted = lineStart
		}
		counted = m[0]
		last := m[0]
		if m[1] > m[0] {
			last = m[1] - 1 // a final '\n' belongs to the line it ends
		}
		end := len(buf)
		if i := bytes.IndexByte(buf[last:], '\n'); i >= 0 {
			end = last + i
		}
		span := rure.Span{Start: m[0], End: m[1]}
		if n := len(h.Lines); n > 0 && lineStart <= h.Lines[n-1].End {
			prev := &h.Lines[n-1]
			h.Spans = append(h.Spans, span)
			prev.SpanHi = len(h.Spans)
			prev.End = max(prev.End, end)
			continue
		}
		if maxLines > 0 && len(h.Lines) >= maxLines {
			return
		}
		h.Spans = append(h.Spans, span)
		h.Lines = append(h.Lines, rure.LineHit{Line: lineNo, Start: lineStart, End: end, SpanLo: len(h.Spans) - 1, SpanHi: len(h.Spans)})
	}
}
