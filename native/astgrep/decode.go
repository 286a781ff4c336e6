package astgrep

import (
	"encoding/binary"
	"errors"
	"math"
	"sort"
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
			src := decodeSource(r)
			f.Matches = make([]Match, n)
			for j := range f.Matches {
				decodeMatch(r, &f.Matches[j], &src)
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

// source is what the native side kept of one file's source for the texts
// of its matches: stretches of it, joined in one string.
type source struct {
	text     string
	segments []segment
}

// segment is one stretch of a source: the file's bytes from offset on,
// at text[at:at+n].
type segment struct {
	offset, at, n int
}

// decodeSource reads a file's segments (ordered by offset, not
// overlapping) into one string, so every text of its matches is a
// substring of it and costs no allocation.
func decodeSource(r *reader) source {
	n := r.count(12)
	segs := make([]segment, 0, n)
	parts := make([][]byte, 0, n)
	total, end := 0, 0
	for range n {
		off := r.u64()
		b := r.take(int(r.u32()))
		if r.err != nil || off < end {
			r.fail()
			return source{}
		}
		segs = append(segs, segment{offset: off, at: total, n: len(b)})
		parts = append(parts, b)
		total += len(b)
		end = off + len(b)
	}
	joined := make([]byte, 0, total)
	for _, p := range parts {
		joined = append(joined, p...)
	}
	return source{text: string(joined), segments: segs}
}

// slice is the file's source from byte lo to hi; a range the native side
// did not keep marks the buffer corrupt.
func (s *source) slice(r *reader, lo, hi int) string {
	if lo == hi && r.err == nil {
		return ""
	}
	i := sort.Search(len(s.segments), func(i int) bool { return s.segments[i].offset > lo }) - 1
	if i < 0 || hi < lo || hi > s.segments[i].offset+s.segments[i].n {
		r.fail()
		return ""
	}
	g := s.segments[i]
	return s.text[g.at+lo-g.offset : g.at+hi-g.offset]
}

// decodeMatch reads one match into m; its texts are substrings of src.
func decodeMatch(r *reader, m *Match, src *source) {
	m.Rule = int(r.u32())
	m.Start = r.pos()
	m.End = r.pos()
	m.Text = src.slice(r, m.Start.Offset, m.End.Offset)
	lo := r.u64()
	m.Lines = src.slice(r, lo, r.u64())
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
			if nn := r.count(32); nn > 0 {
				c.Nodes = make([]Node, nn)
				for x := range c.Nodes {
					nd := &c.Nodes[x]
					nd.Start, nd.End = r.pos(), r.pos()
					if c.Transformed {
						nd.Text = r.str()
					} else {
						nd.Text = src.slice(r, nd.Start.Offset, nd.End.Offset)
					}
				}
			}
		}
	}
	if r.u8() == 1 {
		start := r.u64()
		end := r.u64()
		m.Edit = &Edit{Start: start, End: end, Replacement: r.str()}
	}
}
