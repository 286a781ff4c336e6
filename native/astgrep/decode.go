package astgrep

import (
	"encoding/binary"
	"errors"
	"math"
)

// encodeRules builds the rule blob of gopi_ast_matcher_new.
func encodeRules(rules []Rule) []byte {
	n := 4
	for _, r := range rules {
		n += 13 + len(r.Pattern) + len(r.Rewrite) + len(r.Config)
	}
	b := make([]byte, 0, n)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(rules)))
	for _, r := range rules {
		b = appendStr(b, r.Pattern)
		if r.HasRewrite {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = appendStr(b, r.Rewrite)
		b = appendStr(b, r.Config)
	}
	return b
}

// encodeInputs builds the input blob of gopi_ast_search.
func encodeInputs(in []Input) []byte {
	n := 4
	for _, it := range in {
		n += 13 + len(it.Path) + len(it.Data)
	}
	b := make([]byte, 0, n)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(in)))
	for _, it := range in {
		if it.Data != nil {
			b = append(b, 1)
			b = appendStr(b, it.Path)
			b = binary.LittleEndian.AppendUint64(b, uint64(len(it.Data)))
			b = append(b, it.Data...)
		} else {
			b = append(b, 0)
			b = appendStr(b, it.Path)
		}
	}
	return b
}

func appendStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

var errCorrupt = errors.New("astgrep: corrupt result buffer from the native library")

// reader decodes a result buffer; the first failure sticks in err.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || len(r.b) < n {
		r.err = errCorrupt
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// fail marks the buffer corrupt.
func (r *reader) fail() { r.err = errCorrupt }

func (r *reader) u8() uint8 {
	if s := r.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if s := r.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *reader) u64() int {
	if s := r.take(8); s != nil {
		v := binary.LittleEndian.Uint64(s)
		if v > math.MaxInt32*1024 {
			r.err = errCorrupt
			return 0
		}
		return int(v)
	}
	return 0
}

func (r *reader) str() string { return string(r.take(int(r.u32()))) }

func (r *reader) pos() Pos {
	line := int(r.u32())
	col := int(r.u32())
	return Pos{Line: line, Column: col, Offset: r.u64()}
}

// count reads a count and checks it against the bytes left (each item
// takes at least min bytes), so corrupt input cannot force huge
// allocations.
func (r *reader) count(min int) int {
	n := int(r.u32())
	if r.err == nil && n*min > len(r.b) {
		r.err = errCorrupt
		return 0
	}
	return n
}

// decodeResults decodes a result buffer with want records.
func decodeResults(buf []byte, want int) ([]FileResult, error) {
	r := &reader{b: buf}
	if n := r.count(7); n != want && r.err == nil {
		return nil, errCorrupt
	}
	out := make([]FileResult, want)
	for i := range out {
		f := &out[i]
		f.Status = Status(r.u8())
		f.SyntaxError = r.u8() != 0
		f.Message = r.str()
		if n := r.count(50); n > 0 {
			f.Matches = make([]Match, n)
			var lines []string // the file's line table (see decodeMatch)
			for j := range f.Matches {
				lines = decodeMatch(r, &f.Matches[j], lines)
			}
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	if len(r.b) != 0 {
		return nil, errCorrupt
	}
	return out, nil
}

// newLines marks a line text sent for the first time; any other value
// refers to an earlier entry of the file's line table. Matches on the same
// lines share one string, so a minified file stays linear in size.
const newLines = 0xFFFFFFFF

// decodeMatch reads one match into m, extending and returning the file's
// line table.
func decodeMatch(r *reader, m *Match, lines []string) []string {
	m.Rule = int(r.u32())
	m.Start = r.pos()
	m.End = r.pos()
	m.Text = r.str()
	switch ref := r.u32(); {
	case ref == newLines:
		m.Lines = r.str()
		lines = append(lines, m.Lines)
	case int(ref) < len(lines):
		m.Lines = lines[ref]
	default:
		r.fail()
	}
	if n := r.count(9); n > 0 {
		m.Captures = make([]Capture, n)
		for k := range m.Captures {
			c := &m.Captures[k]
			c.Name = r.str()
			switch r.u8() {
			case 1:
				c.Multi = true
			case 2:
				c.Transformed = true
			}
			if nn := r.count(36); nn > 0 {
				c.Nodes = make([]Node, nn)
				for x := range c.Nodes {
					c.Nodes[x] = Node{Start: r.pos(), End: r.pos(), Text: r.str()}
				}
			}
		}
	}
	if r.u8() == 1 {
		start := r.u64()
		end := r.u64()
		m.Edit = &Edit{Start: start, End: end, Replacement: r.str()}
	}
	return lines
}
