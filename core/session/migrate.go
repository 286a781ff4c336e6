package session

import (
	"encoding/hex"
	"io"
)

// Migrations bring older files to version 3 by editing their lines in
// place (other members keep their bytes and order; new members go last,
// where omp's in-place JavaScript edits put them):
//
//	v1 → v2: entries get ids and parentIds forming a linear chain in file
//	         order; a compaction's firstKeptEntryIndex (an index into the
//	         file's parsed lines, header included) becomes firstKeptEntryId.
//	v2 → v3: message entries with the legacy role "hookMessage" get "custom".
//
// The caller rewrites the file once after migrating.

// migrateV1 gives every valid object line an id and parentId.
func migrateV1(p *parsedFile, valid []bool, rnd io.Reader) {
	// indexed[k] is the k-th parsed line of the file, the header being 0,
	// as omp's firstKeptEntryIndex counts.
	indexed := []int{-1}
	ids := map[string]bool{}
	assigned := map[int]string{}
	prev := []byte("null")
	for i := range p.lines {
		if !valid[i] {
			continue
		}
		indexed = append(indexed, i)
		raw := p.lines[i].raw
		if !isObject(raw) {
			continue
		}
		id := newEntryID(rnd, func(s string) bool { return ids[s] })
		ids[id] = true
		assigned[i] = id
		raw = objSet(raw, "id", quoted(id))
		raw = objSet(raw, "parentId", prev)
		prev = quoted(id)
		if t, _ := stringValue(objGet(raw, "type")); t == TypeCompaction {
			if idx := objGet(raw, "firstKeptEntryIndex"); idx != nil {
				if n, ok := smallInt(idx); ok {
					if n > 0 && n < len(indexed) {
						if target, ok := assigned[indexed[n]]; ok {
							raw = objSet(raw, "firstKeptEntryId", quoted(target))
						}
					}
				}
				raw = objDelete(raw, "firstKeptEntryIndex")
			}
		}
		p.lines[i].raw = raw
	}
}

// migrateV2 renames the legacy message role hookMessage to custom.
func migrateV2(p *parsedFile, valid []bool) {
	for i := range p.lines {
		if !valid[i] || !isObject(p.lines[i].raw) {
			continue
		}
		raw := p.lines[i].raw
		if t, _ := stringValue(objGet(raw, "type")); t != TypeMessage {
			continue
		}
		msg := objGet(raw, "message")
		if !isObject(msg) {
			continue
		}
		if r, _ := stringValue(objGet(msg, "role")); r == "hookMessage" {
			p.lines[i].raw = objSet(raw, "message", objSet(msg, "role", quoted("custom")))
		}
	}
}

func isObject(v []byte) bool {
	i := skipWS(v, 0)
	return i < len(v) && v[i] == '{'
}

// smallInt parses a JSON number that is a non-negative integer.
func smallInt(v []byte) (int, bool) {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' || n > 1<<30 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(v) > 0
}

// newEntryID returns 8 random lowercase hex characters not taken yet (the
// form of omp's entry ids), falling back to 16 after many collisions.
func newEntryID(r io.Reader, taken func(string) bool) string {
	var b [8]byte
	for range 100 {
		io.ReadFull(r, b[:4])
		id := hex.EncodeToString(b[:4])
		if !taken(id) {
			return id
		}
	}
	io.ReadFull(r, b[:])
	return hex.EncodeToString(b[:])
}
