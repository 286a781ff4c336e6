package ast

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// errorSpan is where a syntax error sits in a text: the byte range of an
// ERROR node, or the zero-width point of the first error the parser
// reports (which may be a MISSING node: an expected token tree-sitter
// inserted, which a kind rule cannot find).
type errorSpan struct {
	start, end int
	what       string // "syntax error", or "missing X" for a MISSING node
}

// touches reports whether two spans overlap or share an end.
func (s errorSpan) touches(o errorSpan) bool { return s.start <= o.end && o.start <= s.end }

// syntaxCheck decides whether the rewrite of a file adds syntax errors.
// It keeps, per language, a matcher of ast-grep's rule engine for the
// ERROR nodes of a tree (nil when the language's rule could not be
// compiled: then only the first error of each parse is known).
type syntaxCheck struct {
	errorNodes map[string]*astgrep.Matcher
}

func (s *syntaxCheck) close() {
	for _, m := range s.errorNodes {
		if m != nil {
			m.Close()
		}
	}
}

// errorMatcher returns the ERROR-node matcher of lang, compiling it once.
func (s *syntaxCheck) errorMatcher(lang string) *astgrep.Matcher {
	if m, ok := s.errorNodes[lang]; ok {
		return m
	}
	if s.errorNodes == nil {
		s.errorNodes = map[string]*astgrep.Matcher{}
	}
	doc := fmt.Sprintf("id: syntax-error\nlanguage: %q\nrule:\n  kind: ERROR\n", lang)
	m, err := astgrep.Compile(lang, []astgrep.Rule{{Pattern: "syntax-error", Config: doc}}, astgrep.Smart)
	if err != nil {
		m = nil
	}
	s.errorNodes[lang] = m
	return m
}

// errorsOf parses data with m's language and returns its syntax errors:
// nil when it parses cleanly, else at least one span.
func (s *syntaxCheck) errorsOf(m *astgrep.Matcher, display string, data []byte) ([]errorSpan, error) {
	use := s.errorMatcher(m.Lang())
	if use == nil {
		use = m
	}
	res, err := use.Search([]astgrep.Input{{Path: display, Data: data}}, astgrep.Options{NoPrefilter: true})
	if err != nil {
		return nil, fmt.Errorf("re-parse %s after the rewrite: %w", display, err)
	}
	if len(res) != 1 {
		return nil, fmt.Errorf("re-parse %s after the rewrite: got %d results for one input", display, len(res))
	}
	r := res[0]
	if r.Status != astgrep.Searched {
		// The text could not be parsed at all: an error with no place.
		return []errorSpan{{start: -1, end: -1, what: r.Status.String() + ": " + r.Message}}, nil
	}
	if !r.SyntaxError {
		return nil, nil
	}
	var spans []errorSpan
	if use != m {
		for _, e := range r.Matches {
			spans = append(spans, errorSpan{start: e.Start.Offset, end: e.End.Offset, what: "syntax error"})
		}
	}
	if what, off, ok := firstErrorAt(data, r.Message); ok {
		spans = append(spans, errorSpan{start: off, end: off, what: what})
	} else if len(spans) == 0 {
		spans = append(spans, errorSpan{start: -1, end: -1, what: r.Message})
	}
	return spans, nil
}

// firstErrorAt reads the native description of a tree's first error
// ("missing ) at line 4, column 7": 1-based line, 1-based byte column)
// into what it is and its byte offset in data.
func firstErrorAt(data []byte, msg string) (what string, off int, ok bool) {
	i := strings.LastIndex(msg, " at line ")
	if i < 0 {
		return "", 0, false
	}
	var line, col int
	if n, _ := fmt.Sscanf(msg[i:], " at line %d, column %d", &line, &col); n != 2 || line < 1 || col < 1 {
		return "", 0, false
	}
	for l := 1; l < line; l++ {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			return "", 0, false
		}
		off += nl + 1
	}
	return msg[:i], min(off+col-1, len(data)), true
}

// rewriteError returns, when the rewrite of a file (changes turning src
// into updated; hadErrors: src has syntax errors) adds a syntax error, a
// description of the first one added, with its position in the
// rewritten text; "" when it adds none.
//
// A file that parsed cleanly must still parse cleanly. A file that
// already had errors may keep them: the rewrite is refused only when the
// rewritten tree has an error that none of the original's accounts for.
// Error counts cannot decide this (tree-sitter may merge or split the
// error regions of one mistake, and reports only the first MISSING node,
// a token it inserted such as the ")" of "f(1"), so errors are compared by
// place, in rounds. In each round the original's errors (ERROR nodes, and
// the line of the first error) are carried through the edits into the
// rewritten text (offsets after an edit shift by its change in length; a
// span reaching into an edit grows to cover its replacement), and every
// error of the rewritten text must touch one of them or one already
// accepted in an earlier round; one that does not was added by the
// rewrite. Then those regions are blanked in both texts (their bytes
// turned to spaces, line breaks kept, so positions stay), which uncovers
// the errors the first ones hid, and the next round compares again. Away
// from the blanked regions the two texts differ only by the edits, so the
// rounds end with the rewrite accepted when its blanked text parses
// cleanly, when blanking uncovers nothing new, or after maxSyntaxRounds.
// Edits inside an existing error region are not judged: what is already
// broken there stays broken.
func (s *syntaxCheck) rewriteError(m *astgrep.Matcher, display string, src []byte, hadErrors bool, changes []Change, updated []byte) (string, error) {
	after, err := s.errorsOf(m, display, updated)
	if err != nil || after == nil {
		return "", err
	}
	if !hadErrors {
		e, _ := outside(after, nil)
		return describeError(updated, e), nil
	}
	before, err := s.errorsOf(m, display, src)
	if err != nil {
		return "", err
	}
	var allowed []errorSpan // in the rewritten text
	for round := 0; ; round++ {
		old := widen(src, before)
		mapped := mapSpans(old, changes)
		allowed = append(allowed, mapped...)
		if e, bad := outside(after, allowed); bad {
			return describeError(updated, e), nil
		}
		allowed = append(allowed, after...)
		if round == maxSyntaxRounds || len(old) == 0 {
			return "", nil
		}
		src, updated = blank(src, old), blank(updated, mapped)
		prev := after
		if after, err = s.errorsOf(m, display, updated); err != nil || after == nil {
			return "", err
		}
		if before, err = s.errorsOf(m, display, src); err != nil {
			return "", err
		}
		if slices.Equal(after, prev) {
			return "", nil // blanking uncovered nothing
		}
	}
}

// maxSyntaxRounds bounds the blanking rounds of rewriteError (each parses
// both texts once more).
const maxSyntaxRounds = 6

// widen returns the spans of errors that can be blanked: ERROR nodes as
// they are, a zero-width error (a MISSING node) as its whole line.
func widen(data []byte, spans []errorSpan) []errorSpan {
	var out []errorSpan
	for _, e := range spans {
		if e.start < 0 {
			continue
		}
		if e.start == e.end {
			e.start = bytes.LastIndexByte(data[:e.start], '\n') + 1
			if nl := bytes.IndexByte(data[e.end:], '\n'); nl >= 0 {
				e.end += nl
			} else {
				e.end = len(data)
			}
		}
		out = append(out, e)
	}
	return out
}

// outside returns the first span of got (in text order) that touches no
// span of known. A span without a place is never explained.
func outside(got, known []errorSpan) (errorSpan, bool) {
	var first errorSpan
	found := false
	for _, g := range got {
		ok := g.start >= 0
		if ok {
			ok = false
			for _, k := range known {
				if k.start >= 0 && g.touches(k) {
					ok = true
					break
				}
			}
		}
		if !ok && (!found || g.start < first.start) {
			first, found = g, true
		}
	}
	return first, found
}

// mapSpans carries spans of the original text through changes (sorted,
// not overlapping) into the rewritten text.
func mapSpans(spans []errorSpan, changes []Change) []errorSpan {
	out := make([]errorSpan, len(spans))
	for i, s := range spans {
		out[i] = s
		if s.start >= 0 {
			out[i].start = mapOffset(s.start, changes, false)
			out[i].end = mapOffset(s.end, changes, true)
		}
	}
	return out
}

// mapOffset maps a byte offset of the original text to the rewritten
// one. An offset inside an edited range maps to the start of its
// replacement, or with atEnd to its end.
func mapOffset(p int, changes []Change, atEnd bool) int {
	shift := 0
	for _, c := range changes {
		if p <= c.EditStart {
			break
		}
		if p < c.EditEnd {
			if atEnd {
				return c.EditStart + shift + len(c.After)
			}
			return c.EditStart + shift
		}
		shift += len(c.After) - (c.EditEnd - c.EditStart)
	}
	return p + shift
}

// blank returns a copy of data with the bytes of spans turned to spaces,
// line breaks kept, so that offsets, lines and columns stay the same.
func blank(data []byte, spans []errorSpan) []byte {
	out := bytes.Clone(data)
	for _, s := range spans {
		if s.start < 0 {
			continue
		}
		for i := max(s.start, 0); i < min(s.end, len(out)); i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	return out
}

// describeError renders an error of the rewritten text: what it is and
// where (1-based line, 1-based column in characters).
func describeError(data []byte, e errorSpan) string {
	if e.start < 0 {
		return e.what
	}
	off := min(e.start, len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	lineStart := bytes.LastIndexByte(data[:off], '\n') + 1
	col := 1 + utf8.RuneCount(data[lineStart:off])
	return fmt.Sprintf("%s at line %d, column %d", e.what, line, col)
}
