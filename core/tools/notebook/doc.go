package notebook

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Doc is a notebook file held for editing: its bytes, where its cells
// are in them, and how it writes its JSON. Apply writes an edited text
// view back into the file changing only the bytes of what changed.
type Doc struct {
	data   []byte
	top    object
	cells  span     // the "cells" array
	elems  []span   // its elements
	parsed []cellAt // the cells, in order
	st     style
	ids    bool // new cells get an "id" (nbformat 4.5 and later)
}

// cellAt is one cell of the file.
type cellAt struct {
	obj    object
	kind   string // code, markdown or raw
	source string // the joined source
}

// Parse reads a notebook for editing. It refuses what Text refuses, and
// a notebook whose cells name a key the text view reads (cells,
// cell_type, source) twice or in another case, where it is not clear
// which one the text showed.
func Parse(data []byte) (*Doc, error) {
	if n, ok := scanNotebook(data); ok {
		d := &Doc{data: data, top: n.top, st: detectStyle(data, n.top), cells: n.cells, elems: n.elems, parsed: n.cellv}
		d.ids = d.wantsIDs()
		return d, nil
	}
	if _, err := textDecoded(data); err != nil {
		return nil, err
	}
	s := scanner{data: data}
	top, err := s.object(0)
	if err != nil {
		return nil, fmt.Errorf("its JSON cannot be taken apart (%v)", err)
	}
	if err := ambiguous(top, "cells", "it "); err != nil {
		return nil, err
	}
	d := &Doc{data: data, top: top, st: detectStyle(data, top)}
	if d.cells, d.elems, err = s.array(top.members[top.find("cells")].val.start); err != nil {
		return nil, fmt.Errorf("its cells cannot be taken apart (%v)", err)
	}
	for i, e := range d.elems {
		o, err := s.object(e.start)
		if err != nil {
			return nil, fmt.Errorf("cell %d cannot be taken apart (%v)", i, err)
		}
		if err := ambiguous(o, "cell_type", fmt.Sprintf("cell %d ", i)); err != nil {
			return nil, err
		}
		if err := ambiguous(o, "source", fmt.Sprintf("cell %d ", i)); err != nil {
			return nil, err
		}
		c := cellAt{obj: o}
		kind, _ := d.value(o, "cell_type")
		c.kind, _ = decodeString(kind)
		if raw, ok := d.value(o, "source"); ok {
			var src source
			if err := json.Unmarshal(raw, &src); err != nil {
				return nil, fmt.Errorf("cell %d: %v", i, err)
			}
			c.source = string(src)
		}
		d.parsed = append(d.parsed, c)
	}
	d.ids = d.wantsIDs()
	return d, nil
}

// ambiguous refuses an object with key twice or in another case.
func ambiguous(o object, key, where string) error {
	n := 0
	for _, m := range o.members {
		switch {
		case m.key == key:
			n++
		case strings.EqualFold(m.key, key):
			return fmt.Errorf("%shas a key %q beside or instead of %q; rename it to %q so that it is clear which one holds the %s", where, m.key, key, key, strings.ReplaceAll(key, "_", " "))
		}
	}
	if n > 1 {
		return fmt.Errorf("%shas the key %q %d times; keep one so that it is clear which one holds the %s", where, key, n, strings.ReplaceAll(key, "_", " "))
	}
	return nil
}

// value returns the bytes of the value of o's member key.
func (d *Doc) value(o object, key string) ([]byte, bool) {
	k := o.find(key)
	if k < 0 {
		return nil, false
	}
	return d.data[o.members[k].val.start:o.members[k].val.end], true
}

// wantsIDs reports whether the notebook is nbformat 4.5 or later, whose
// cells must have an id.
func (d *Doc) wantsIDs() bool {
	num := func(key string) int {
		raw, _ := d.value(d.top, key)
		n, err := strconv.Atoi(string(raw))
		if err != nil {
			return -1
		}
		return n
	}
	major, minor := num("nbformat"), num("nbformat_minor")
	return major > 4 || (major == 4 && minor >= 5)
}

// Text is the notebook's text view, as Text gives it.
func (d *Doc) Text() string {
	parts := make([]string, len(d.parsed))
	for i, c := range d.parsed {
		parts[i] = cellText(c.kind, i, c.source)
	}
	return strings.Join(parts, "\n")
}

// marker is the line that starts cell i of kind in the text view.
func marker(kind string, i int) string { return "# %% [" + kind + "] cell:" + strconv.Itoa(i) }

// Cells is the number of cells.
func (d *Doc) Cells() int { return len(d.parsed) }

// Empty returns a Doc for a notebook that does not exist yet: no cells,
// nbformat 4.5, written as Jupyter writes (indent 1, sorted keys, a final
// newline), so Apply creates it.
func Empty() *Doc {
	d, err := Parse([]byte(emptyNotebook))
	if err != nil {
		panic("notebook: the empty notebook does not parse: " + err.Error())
	}
	return d
}

const emptyNotebook = "{\n \"cells\": [],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
