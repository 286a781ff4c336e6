package hashedit

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
)

// OpKind is what an operation does.
type OpKind int

// Operation kinds.
const (
	InsertAfter  OpKind = iota // "+ A": payload after line A
	InsertBefore               // "< A": payload before line A
	Delete                     // "- A..B": remove lines A through B
	Replace                    // "= A..B": lines A through B become the payload
)

// Special names a pseudo-anchor: the start or the end of the file.
type Special int

// Pseudo-anchors.
const (
	NoSpecial Special = iota
	BOF               // before the first line
	EOF               // after the last line
)

// Target is where an insert goes: a line anchor or BOF/EOF.
type Target struct {
	Special Special
	Ref     hashline.Ref // when Special is NoSpecial
}

// Op is one parsed operation.
type Op struct {
	Kind     OpKind
	Line     int          // 1-based line of the op in the whole input
	At       Target       // InsertAfter, InsertBefore
	From, To hashline.Ref // Delete, Replace (inclusive)
	Payload  []string     // inserted lines; for Replace without payload, one empty line
}

// Section is the edits for one file.
type Section struct {
	Path string // as written (an absolute path inside cwd is made relative)
	Line int    // input line of its (first) header
	Ops  []Op
}

// Input is a parsed edit input.
type Input struct {
	Sections []Section // one per distinct path, in order of first appearance
	Warnings []string  // parse warnings (e.g. the abort marker)
}

// Envelope and control markers of the edit language.
const (
	beginPatch = "*** Begin Patch"
	endPatch   = "*** End Patch"
	abortMark  = "*** Abort"
)

// AbortWarning is added when the input stops at "*** Abort".
const AbortWarning = `Input stopped at "*** Abort": the operations above it were applied and everything after it was ignored.`

// Parse parses an edit input. cwd turns absolute header paths inside it
// into relative ones; sep is the payload-line prefix (hashline.EditSeparator
// in production). Sections naming the same path are merged in input order,
// so every op refers to the file as it was before the edit.
func Parse(input, cwd, sep string) (*Input, error) {
	lines := strings.Split(input, "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	in := &Input{}
	p := &opParser{sep: sep}
	byPath := map[string]int{}
	var cur *Section
	flush := func() error {
		if cur == nil {
			return nil
		}
		if err := p.finish(); err != nil {
			return err
		}
		if i, ok := byPath[cur.Path]; ok {
			in.Sections[i].Ops = append(in.Sections[i].Ops, p.ops...)
		} else {
			byPath[cur.Path] = len(in.Sections)
			cur.Ops = p.ops
			in.Sections = append(in.Sections, *cur)
		}
		p.ops, cur = nil, nil
		return nil
	}
	for i, raw := range lines {
		n := i + 1
		t := strings.TrimSpace(raw)
		switch {
		case t == beginPatch:
			continue
		case (t == endPatch || t == abortMark) && cur == nil && len(in.Sections) == 0:
			return nil, missingHeader(raw)
		case t == endPatch:
			return in, flush()
		case t == abortMark:
			in.Warnings = append(in.Warnings, AbortWarning)
			return in, flush()
		case strings.HasPrefix(raw, "@"):
			if err := flush(); err != nil {
				return nil, err
			}
			path := strings.TrimSpace(strings.TrimLeft(raw, "@"))
			if path == "" {
				return nil, fmt.Errorf("Input header %q is empty; provide a file path.", t)
			}
			cur = &Section{Path: relativize(path, cwd), Line: n}
			continue
		}
		if cur == nil {
			if t == "" {
				continue
			}
			return nil, missingHeader(raw)
		}
		if err := p.line(n, raw); err != nil {
			return nil, err
		}
	}
	if cur == nil && len(in.Sections) == 0 {
		return nil, missingHeader("")
	}
	return in, flush()
}

// missingHeader is the error for input that does not start with a section
// header; got is the offending line.
func missingHeader(got string) error {
	return fmt.Errorf(`input must begin with "@@ PATH" on the first non-blank line; got: %s Example: "@@ src/foo.ts" then edit ops.`, quoteShort(got))
}

// quoteShort quotes a line for an error, cut to 80 characters.
func quoteShort(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// relativize turns an absolute path inside cwd into a cwd-relative one.
func relativize(path, cwd string) string {
	if !filepath.IsAbs(path) || cwd == "" {
		return path
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}

// opParser turns the body lines of one section into ops.
type opParser struct {
	sep     string
	ops     []Op
	pending *Op // the last + < = op, still collecting payload
}

// finish closes the op being collected.
func (p *opParser) finish() error {
	op := p.pending
	p.pending = nil
	if op == nil {
		return nil
	}
	if len(op.Payload) == 0 {
		if op.Kind != Replace {
			return fmt.Errorf("line %d: + and < operations require at least one %sTEXT payload line.", op.Line, p.sep)
		}
		op.Payload = []string{""}
	}
	p.ops = append(p.ops, *op)
	return nil
}

func (p *opParser) line(n int, raw string) error {
	if text, ok := strings.CutPrefix(raw, p.sep); ok {
		if p.pending == nil {
			return fmt.Errorf("line %d: payload line has no preceding +, <, or = operation.", n)
		}
		p.pending.Payload = append(p.pending.Payload, text)
		return nil
	}
	t := strings.TrimSpace(raw)
	if t == "" {
		return nil
	}
	if err := p.finish(); err != nil {
		return err
	}
	operand := strings.TrimSpace(t[1:])
	switch t[0] {
	case '+', '<':
		kind := InsertAfter
		if t[0] == '<' {
			kind = InsertBefore
		}
		at, err := parseTarget(operand)
		if err != nil {
			return fmt.Errorf("line %d: expected a full anchor such as \"119sr\"; got %q.", n, operand)
		}
		p.pending = &Op{Kind: kind, Line: n, At: at}
		return nil
	case '-', '=':
		from, to, err := parseRange(operand)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		op := Op{Kind: Delete, Line: n, From: from, To: to}
		if t[0] == '=' {
			op.Kind = Replace
			p.pending = &op
			return nil
		}
		p.ops = append(p.ops, op)
		return nil
	}
	return fmt.Errorf("line %d: unrecognized op. Use < ANCHOR..., + ANCHOR..., - A..B..., = A..B...", n)
}

// stripRow drops a "|TEXT" tail copied along with an anchor from read
// output; the hash still has to match, so nothing is guessed.
func stripRow(tok string) string {
	if i := strings.Index(tok, hashline.BodySeparator); i >= 0 {
		return strings.TrimSpace(tok[:i])
	}
	return tok
}

func parseTarget(s string) (Target, error) {
	s = stripRow(s)
	switch s {
	case "BOF":
		return Target{Special: BOF}, nil
	case "EOF":
		return Target{Special: EOF}, nil
	}
	r, err := hashline.ParseAnchor(s)
	if err != nil {
		return Target{}, err
	}
	return Target{Ref: r}, nil
}

func parseRange(s string) (from, to hashline.Ref, err error) {
	if !strings.Contains(s, "..") {
		return from, to, fmt.Errorf(`explicit ranges are required for delete/replace: write "A..B" with two full anchors, e.g. "- 12ab..12ab" for a single line; got %q.`, s)
	}
	a, b, _ := strings.Cut(s, "..")
	from, err = hashline.ParseAnchor(stripRow(a))
	if err == nil {
		to, err = hashline.ParseAnchor(stripRow(b))
	}
	switch {
	case err != nil:
		return from, to, errors.New(`range must include exactly two full anchors separated by "..".`)
	case to.Line < from.Line:
		return from, to, fmt.Errorf("range %s..%s ends before it starts.", from, to)
	case to.Line == from.Line && to.Hash != from.Hash:
		return from, to, fmt.Errorf("range %s..%s uses two different hashes for the same line.", from, to)
	}
	return from, to, nil
}
