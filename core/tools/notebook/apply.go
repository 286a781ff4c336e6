package notebook

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Apply returns the file with the edited text view written into it.
//
// The text is a sequence of cells, each starting with a marker line
// "# %% [TYPE] cell:N" (TYPE code, markdown or raw), or "# %% [TYPE]"
// without a number for a new cell; the lines up to the next marker are
// the cell's source. A marker naming cell N keeps that cell of the file —
// its id, metadata, outputs and execution count, with its source and type
// replaced — and cells may be dropped, reordered or added. A second
// marker with the same N is a new cell (a copy without outputs). A
// number the file has no cell for is refused (*CellError).
//
// Only what changed is rewritten: a kept cell whose type and source did
// not change keeps its bytes, a changed one is rewritten member by member
// (its other members keep their bytes), and the rest of the file — the
// notebook's metadata, nbformat version, indentation, key order and final
// newline — is copied as it was. New and changed JSON is written in the
// file's own style (indentation, separators, ASCII escaping).
func (d *Doc) Apply(text string) ([]byte, error) {
	data, _, err := d.apply(text)
	return data, err
}

// ApplyView is Apply that also returns the text view of the file it
// returns (the cells of text, numbered anew), as Text would give it,
// without converting the new file again.
func (d *Doc) ApplyView(text string) (data []byte, view string, err error) {
	data, parsed, err := d.apply(text)
	if err != nil {
		return nil, "", err
	}
	if !utf8.ValidString(text) {
		// Written as JSON, bytes that are not UTF-8 read back as U+FFFD.
		view, err = Text(data)
		return data, view, err
	}
	var b strings.Builder
	for i, c := range parsed {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(cellText(c.kind, i, c.source))
	}
	return data, b.String(), nil
}

// apply is Apply, returning the cells of the edited view too.
func (d *Doc) apply(text string) ([]byte, []viewCell, error) {
	parsed, err := parseView(text)
	if err != nil {
		return nil, nil, err
	}
	used := make([]bool, len(d.parsed))
	ids := d.existingIDs()
	cells := make([]string, len(parsed))
	same := len(parsed) == len(d.parsed)
	for i, p := range parsed {
		if p.index >= len(d.parsed) {
			return nil, nil, &CellError{Line: p.line, Index: p.index, Cells: len(d.parsed)}
		}
		if p.index >= 0 && !used[p.index] {
			used[p.index] = true
			cells[i] = d.rewriteCell(d.parsed[p.index], p)
			same = same && p.index == i
			continue
		}
		same = false
		cells[i] = d.newCell(p, ids)
	}
	var b strings.Builder
	b.Grow(len(d.data) + len(text))
	b.Write(d.data[:d.cells.start])
	switch {
	case same && len(cells) == 0:
		b.Write(d.data[d.cells.start:d.cells.end])
	case same:
		// Every cell where it was: write each over its old bytes, keeping
		// the separators between them.
		b.Write(d.data[d.cells.start:d.elems[0].start])
		for i, c := range cells {
			b.WriteString(c)
			end := d.cells.end
			if i+1 < len(d.elems) {
				end = d.elems[i+1].start
			}
			b.Write(d.data[d.elems[i].end:end])
		}
	default:
		b.WriteString(d.cellList(cells))
	}
	b.Write(d.data[d.cells.end:])
	return []byte(b.String()), parsed, nil
}

// cellList writes the cells array anew, with the separators the file
// used between its cells (or its style's, when it had fewer than two).
func (d *Doc) cellList(cells []string) string {
	if len(cells) == 0 {
		return "[]"
	}
	open, gap, close := d.cellSeparators()
	return "[" + open + strings.Join(cells, gap) + close + "]"
}

// cellSeparators returns what the file has after "[", between two cells
// and before "]" of its cells array, derived from its style where the
// array has too few cells to show them.
func (d *Doc) cellSeparators() (open, gap, close string) {
	if len(d.elems) > 0 {
		open = string(d.data[d.cells.start+1 : d.elems[0].start])
		close = string(d.data[d.elems[len(d.elems)-1].end : d.cells.end-1])
		if len(d.elems) > 1 {
			return open, string(d.data[d.elems[0].end:d.elems[1].start]), close
		}
		if d.st.newline == "" {
			return open, d.st.flatSep, close
		}
		return open, "," + open, close
	}
	if d.st.newline == "" {
		return "", d.st.flatSep, ""
	}
	outer := d.memberIndent(d.top)
	return d.st.newline + outer + d.st.unit, "," + d.st.newline + outer + d.st.unit, d.st.newline + outer
}

// memberIndent is the indentation of the members of o: what follows the
// last line break between "{" and its first key.
func (d *Doc) memberIndent(o object) string {
	if len(o.members) == 0 {
		return ""
	}
	open := string(d.data[o.at.start+1 : o.members[0].keyAt.start])
	if i := strings.LastIndexByte(open, '\n'); i >= 0 {
		return open[i+1:]
	}
	return ""
}

// cellIndent is the indentation of the cells in the cells array.
func (d *Doc) cellIndent() string {
	open, _, _ := d.cellSeparators()
	if i := strings.LastIndexByte(open, '\n'); i >= 0 {
		return open[i+1:]
	}
	return ""
}

// existingIDs returns the ids of the file's cells.
func (d *Doc) existingIDs() map[string]bool {
	ids := map[string]bool{}
	for _, c := range d.parsed {
		if raw, ok := d.value(c.obj, "id"); ok {
			if id, err := decodeString(raw); err == nil {
				ids[id] = true
			}
		}
	}
	return ids
}

// rewriteCell returns the bytes of kept cell c with the type and source
// of p. Unchanged, it is the file's bytes.
func (d *Doc) rewriteCell(c cellAt, p viewCell) string {
	if c.kind == p.kind && c.source == p.source {
		return string(d.data[c.obj.at.start:c.obj.at.end])
	}
	indent := d.memberIndent(c.obj)
	type kv struct{ key, prefix, value string } // prefix: the key and separator
	var members []kv
	for _, m := range c.obj.members {
		members = append(members, kv{m.key, string(d.data[m.keyAt.start:m.val.start]), string(d.data[m.val.start:m.val.end])})
	}
	set := func(key, value string) {
		for i := len(members) - 1; i >= 0; i-- {
			if members[i].key == key {
				members[i].value = value
				return
			}
		}
		at := len(members)
		if d.sortedKeys(c.obj) {
			at, _ = slices.BinarySearchFunc(members, key, func(m kv, k string) int { return strings.Compare(m.key, k) })
		}
		members = slices.Insert(members, at, kv{key, d.st.quote(key) + d.keySep(c.obj), value})
	}
	drop := func(key string) {
		members = slices.DeleteFunc(members, func(m kv) bool { return m.key == key })
	}
	if c.kind != p.kind {
		set("cell_type", d.st.quote(p.kind))
		if p.kind == "code" {
			if c.obj.find("execution_count") < 0 {
				set("execution_count", "null")
			}
			if c.obj.find("outputs") < 0 {
				set("outputs", "[]")
			}
			drop("attachments") // code cells have none in nbformat
		} else {
			drop("execution_count")
			drop("outputs")
		}
	}
	if c.source != p.source {
		set("source", d.sourceValue(c, p.source, indent))
	}
	raws := make([]string, len(members))
	for i, m := range members {
		raws[i] = m.prefix + m.value
	}
	open, gap, close := d.objectSeparators(c.obj)
	return "{" + open + strings.Join(raws, gap) + close + "}"
}

// keySep is what o has between its first key and value.
func (d *Doc) keySep(o object) string {
	if len(o.members) == 0 {
		return d.st.keySep
	}
	return string(d.data[o.members[0].keyAt.end:o.members[0].val.start])
}

// sortedKeys reports whether o's keys are in sorted order (a cell with
// one key follows the file's style).
func (d *Doc) sortedKeys(o object) bool {
	if len(o.members) < 2 {
		return d.st.sortKeys
	}
	return slices.IsSortedFunc(o.members, func(a, b member) int { return strings.Compare(a.key, b.key) })
}

// objectSeparators returns what o, a cell (which has a cell_type, so at
// least one member), has after "{", between two members and before "}".
func (d *Doc) objectSeparators(o object) (open, gap, close string) {
	open = string(d.data[o.at.start+1 : o.members[0].keyAt.start])
	close = string(d.data[o.members[len(o.members)-1].val.end : o.at.end-1])
	switch {
	case len(o.members) > 1:
		gap = string(d.data[o.members[0].val.end:o.members[1].keyAt.start])
	case d.st.newline == "" || !strings.Contains(open, "\n"):
		gap = d.st.flatSep
	default:
		gap = "," + open
	}
	return open, gap, close
}

// sourceValue writes a cell's new source as the cell wrote its old one:
// one string, or (the nbformat way, and for a new cell) a list of lines
// each with its line break.
func (d *Doc) sourceValue(c cellAt, src, indent string) string {
	if raw, ok := d.value(c.obj, "source"); ok && raw[0] == '"' {
		return d.st.quote(src)
	}
	lines := splitSource(src)
	items := make([]string, len(lines))
	for i, l := range lines {
		items[i] = d.st.quote(l)
	}
	return d.st.list(items, indent+d.st.unit, indent)
}

// splitSource splits a source into lines that keep their "\n"; the last
// has none when the source does not end with one. "" has no lines.
func splitSource(src string) []string {
	var lines []string
	for src != "" {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, src)
			break
		}
		lines = append(lines, src[:i+1])
		src = src[i+1:]
	}
	return lines
}

// newCell writes a cell the file did not have, with nbformat's keys in
// sorted order: an id (nbformat 4.5+), no metadata, and for code no
// outputs and no execution count.
func (d *Doc) newCell(p viewCell, ids map[string]bool) string {
	indent := d.cellIndent() + d.st.unit
	keys := []string{"cell_type"}
	values := []string{d.st.quote(p.kind)}
	if p.kind == "code" {
		keys, values = append(keys, "execution_count"), append(values, "null")
	}
	if d.ids {
		keys, values = append(keys, "id"), append(values, d.st.quote(newID(p.source, ids)))
	}
	keys, values = append(keys, "metadata"), append(values, "{}")
	if p.kind == "code" {
		keys, values = append(keys, "outputs"), append(values, "[]")
	}
	keys = append(keys, "source")
	values = append(values, d.sourceValue(cellAt{}, p.source, indent))
	return d.st.obj(keys, values, indent, d.cellIndent())
}

// newID returns an id for a new cell that no cell has: eight hex digits
// derived from its source (so the same edit gives the same file), as
// Jupyter's ids are eight hex digits.
func newID(src string, ids map[string]bool) string {
	for n := 0; ; n++ {
		sum := sha256.Sum256([]byte(strconv.Itoa(n) + "\x00" + src))
		id := hex.EncodeToString(sum[:4])
		if !ids[id] {
			ids[id] = true
			return id
		}
	}
}
