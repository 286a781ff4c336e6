package notebook

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// textFast is Text for a notebook scanNotebook takes apart; ok is false
// for any other file, including every file Text refuses: textDecoded then
// converts it or says what is wrong.
func textFast(data []byte) (text string, ok bool) {
	n, ok := scanNotebook(data)
	if !ok {
		return "", false
	}
	return n.text(), true
}

// scanned is a notebook taken apart by scanNotebook.
type scanned struct {
	top   object
	cells span     // the "cells" array
	elems []span   // its elements
	cellv []cellAt // the cells, in order
}

// text is the notebook's text view.
func (n *scanned) text() string {
	var b strings.Builder
	for i, c := range n.cellv {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(cellText(c.kind, i, c.source))
	}
	return b.String()
}

// scanNotebook takes apart a notebook that is valid JSON, whose top level
// is an object with one "cells" array of objects, and whose top level and
// cells spell "cells", "cell_type" and "source" only so and at most once.
// It finds the cells with the scanner (which does not build values) and
// decodes only each cell's type and source, as encoding/json would
// decode them in the cell, so a large notebook's outputs cost one
// validity pass and one scan. ok is false for any other file.
func scanNotebook(data []byte) (n scanned, ok bool) {
	if !json.Valid(data) {
		return n, false
	}
	s := scanner{data: data}
	top, err := s.object(0)
	if err != nil || !plainKeys(top, "cells") {
		return n, false
	}
	k := top.find("cells")
	if k < 0 {
		return n, false
	}
	cells, elems, err := s.array(top.members[k].val.start)
	if err != nil {
		return n, false
	}
	n = scanned{top: top, cells: cells, elems: elems, cellv: make([]cellAt, len(elems))}
	for i, e := range elems {
		o, err := s.object(e.start)
		if err != nil || !plainKeys(o, "cell_type", "source") {
			return n, false
		}
		kind, src, ok := cellFields(data, o)
		if !ok {
			return n, false
		}
		n.cellv[i] = cellAt{obj: o, kind: kind, source: src}
	}
	return n, true
}

// plainKeys reports whether every one of keys is spelled in o only so
// (no other case of it) and at most once, so that a struct decoder and a
// map lookup read the same member.
func plainKeys(o object, keys ...string) bool {
	for _, key := range keys {
		n := 0
		for _, m := range o.members {
			if strings.EqualFold(m.key, key) {
				if m.key != key {
					return false
				}
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

// cellFields decodes a cell's type and source as Text's decoding of the
// cell would; ok is false when the cell has no valid type or source.
func cellFields(data []byte, o object) (kind, src string, ok bool) {
	k := o.find("cell_type")
	if k < 0 {
		return "", "", false
	}
	raw := data[o.members[k].val.start:o.members[k].val.end]
	if raw[0] != '"' {
		return "", "", false
	}
	kind, err := decodeString(raw)
	if err != nil || (kind != "code" && kind != "markdown" && kind != "raw") {
		return "", "", false
	}
	if k := o.find("source"); k >= 0 {
		var s source
		if s.UnmarshalJSON(data[o.members[k].val.start:o.members[k].val.end]) != nil {
			return "", "", false
		}
		src = string(s)
	}
	return kind, src, true
}

// decodeSource decodes a cell's source (valid JSON: a string, a list of
// strings and nulls, or null) without reflection; ok is false for
// anything else, and for a string it leaves to encoding/json (one with a
// \u escape or bytes that are not UTF-8).
func decodeSource(b []byte) (string, bool) {
	s := scanner{data: b}
	i := s.ws(0)
	if i >= len(b) {
		return "", false
	}
	switch b[i] {
	case '"':
		var out []byte
		out, ok := appendUnquoted(out, b[i:])
		return string(out), ok
	case 'n':
		return "", true
	case '[':
	default:
		return "", false
	}
	_, elems, err := s.array(i)
	if err != nil {
		return "", false
	}
	var out []byte
	for _, e := range elems {
		switch b[e.start] {
		case 'n':
		case '"':
			var ok bool
			if out, ok = appendUnquoted(out, b[e.start:e.end]); !ok {
				return "", false
			}
		default:
			return "", false
		}
	}
	return string(out), true
}

// appendUnquoted appends the content of the JSON string q (quotes
// included, valid JSON) to dst; ok is false for a \u escape or bytes that
// are not UTF-8, which encoding/json decodes with rules of its own.
func appendUnquoted(dst, q []byte) ([]byte, bool) {
	q = q[1 : len(q)-1]
	if !utf8.Valid(q) {
		return dst, false
	}
	for len(q) > 0 {
		i := bytes.IndexByte(q, '\\')
		if i < 0 {
			return append(dst, q...), true
		}
		dst = append(dst, q[:i]...)
		var c byte
		switch q[i+1] {
		case '"', '\\', '/':
			c = q[i+1]
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default: // \u
			return dst, false
		}
		dst = append(dst, c)
		q = q[i+2:]
	}
	return dst, true
}
