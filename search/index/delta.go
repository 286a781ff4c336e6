package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The delta: the postings of the files a refresh indexed since the build
// (or since the last merge into a segment), as one blob (lists.name =
// 'delta') rewritten whole by each refresh and read whole by each query.
// A refresh of a few files then writes one row instead of a row per
// trigram of those files into the postings B-tree (tens of thousands of
// scattered page writes for 10 files of the kernel tree). Layout: uvarint
// count, then per trigram in ascending order: uvarint trigram gap, uvarint
// length and the posting list (appendPosting's encoding).

// deltaMaxBytes: a delta grown past this is written out as a segment.
const deltaMaxBytes = 4 << 20

// delta is a decoded delta: trigrams ascending, each with its list.
type delta struct {
	tris  []Trigram
	lists [][]byte
}

func decodeDelta(b []byte) (*delta, error) {
	d := &delta{}
	if len(b) == 0 {
		return d, nil
	}
	r := listDecoder{b: b}
	n := r.uvarint()
	if n > uint64(len(b)) {
		return nil, errBadList
	}
	var t Trigram
	for i := range n {
		gap := r.uvarint()
		if gap == 0 && i > 0 || gap > 1<<24 {
			return nil, errBadList
		}
		t += Trigram(gap)
		l := r.uvarint()
		if r.err != nil || l > uint64(len(r.b)) || t >= 1<<24 {
			return nil, errBadList
		}
		d.tris = append(d.tris, t)
		d.lists = append(d.lists, r.b[:l])
		r.b = r.b[l:]
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadList
	}
	return d, nil
}

func (d *delta) encode() []byte {
	b := binary.AppendUvarint(nil, uint64(len(d.tris)))
	var prev Trigram
	for i, t := range d.tris {
		b = binary.AppendUvarint(b, uint64(t-prev))
		b = binary.AppendUvarint(b, uint64(len(d.lists[i])))
		b = append(b, d.lists[i]...)
		prev = t
	}
	return b
}

// list is the posting list of t in the delta, nil when none.
func (d *delta) list(t Trigram) []byte {
	if i, ok := slices.BinarySearch(d.tris, t); ok {
		return d.lists[i]
	}
	return nil
}

// merged is d without the ids in dropped (ascending: the files this
// refresh found changed or removed), plus the lists of add (whose ids are
// all new). Only the lists holding a dropped id are decoded; the others
// are kept as they are, and the new ids (addLists, in trigram order) are
// appended to them, so a
// refresh of a few files costs a walk over the delta's bytes, not a
// decoding and encoding of every id in it.
func (d *delta) merged(dropped []int64, addLists []postingList) (*delta, error) {
	out := &delta{tris: make([]Trigram, 0, len(d.tris)+len(addLists)), lists: make([][]byte, 0, len(d.tris)+len(addLists))}
	put := func(t Trigram, l []byte) {
		if len(l) > 0 {
			out.tris = append(out.tris, t)
			out.lists = append(out.lists, l)
		}
	}
	i, j := 0, 0
	for i < len(d.tris) || j < len(addLists) {
		switch {
		case j == len(addLists) || i < len(d.tris) && d.tris[i] < addLists[j].tri:
			l, err := withoutIDs(d.lists[i], dropped)
			if err != nil {
				return nil, err
			}
			put(d.tris[i], l)
			i++
		case i == len(d.tris) || addLists[j].tri < d.tris[i]:
			put(addLists[j].tri, addLists[j].buf)
			j++
		default:
			l, err := withoutIDs(d.lists[i], dropped)
			if err != nil {
				return nil, err
			}
			if l, err = joinPostings(l, addLists[j].buf); err != nil {
				return nil, err
			}
			put(d.tris[i], l)
			i++
			j++
		}
	}
	return out, nil
}

// withoutIDs is the posting list b without the ids of drop (ascending):
// b itself when it holds none of them.
func withoutIDs(b []byte, drop []int64) ([]byte, error) {
	if len(drop) == 0 {
		return b, nil
	}
	var id int64
	found := false
	for rest := b; len(rest) > 0 && !found; {
		gap, n := binary.Uvarint(rest)
		if n <= 0 {
			return nil, errBadPosting
		}
		id += int64(gap)
		rest = rest[n:]
		_, found = slices.BinarySearch(drop, id)
	}
	if !found {
		return b, nil
	}
	ids, err := decodePostings(nil, b)
	if err != nil {
		return nil, err
	}
	var out []byte
	var last int64
	for _, id := range ids {
		if _, gone := slices.BinarySearch(drop, id); !gone {
			out = appendPosting(out, last, id)
			last = id
		}
	}
	return out, nil
}

// joinPostings is the posting list of the ids of a and of b: b's bytes
// appended after a's when its ids all follow a's (new files' ids do),
// else the two merged.
func joinPostings(a, b []byte) ([]byte, error) {
	if len(a) == 0 {
		return b, nil
	}
	var last int64
	for rest := a; len(rest) > 0; {
		gap, n := binary.Uvarint(rest)
		if n <= 0 {
			return nil, errBadPosting
		}
		last += int64(gap)
		rest = rest[n:]
	}
	first, n := binary.Uvarint(b)
	if n <= 0 {
		return nil, errBadPosting
	}
	if int64(first) > last {
		out := make([]byte, 0, len(a)+len(b)+2)
		out = append(out, a...)
		out = appendPosting(out, last, int64(first))
		return append(out, b[n:]...), nil
	}
	x, err := decodePostings(nil, a)
	if err != nil {
		return nil, err
	}
	y, err := decodePostings(nil, b)
	if err != nil {
		return nil, err
	}
	var out []byte
	last = 0
	for _, id := range union(x, y) {
		out = appendPosting(out, last, id)
		last = id
	}
	return out, nil
}

// readDelta reads the delta ('delta' in lists; none: empty).
func readDelta(ctx context.Context, db querier) (*delta, error) {
	b, err := readList(ctx, db, "delta")
	if errors.Is(err, sql.ErrNoRows) {
		return &delta{}, nil
	}
	if err != nil {
		return nil, asNoIndex(err)
	}
	d, err := decodeDelta(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return d, nil
}

// writeDelta replaces the delta.
func writeDelta(ctx context.Context, tx *sql.Tx, d *delta) error {
	if err := writeList(ctx, tx, "delta", d.encode()); err != nil {
		return fmt.Errorf("write the index: %w", err)
	}
	return nil
}

// indexIntoDelta indexes paths (ids from firstID) into the delta, with
// their records appended to files; false (nothing written) when the delta
// would grow past deltaMaxBytes: the caller writes a segment instead.
func indexIntoDelta(ctx context.Context, tx *sql.Tx, o *Options, d *delta, dropped []int64, paths []string, narrow map[string]bool, firstID int64, st *Stats, files *[]fileRecord) (bool, error) {
	lists := &smallLists{}
	var recs []fileRecord
	err := indexFiles(ctx, o, paths, firstID, func(f *indexedFile) error {
		if !f.ok {
			return nil
		}
		st.Files++
		if f.indexed {
			st.Indexed++
			st.Bytes += f.st.size
			lists.add(f.id, f.tris)
		}
		recs = append(recs, fileRecord{id: f.id, path: f.path, st: f.st, indexed: f.indexed, narrow: inNarrow(narrow, f.path)})
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("index the files: %w", err)
	}
	m, err := d.merged(dropped, lists.sorted())
	if err != nil {
		return false, err
	}
	size := 0
	for _, l := range m.lists {
		size += len(l)
	}
	if size > deltaMaxBytes {
		return false, nil
	}
	if err := writeDelta(ctx, tx, m); err != nil {
		return false, err
	}
	*files = append(*files, recs...)
	return true, nil
}

// smallLists accumulates the posting lists of a refresh's few files as
// (trigram, id) pairs sorted once at the end. The build's postingLists
// allocates a 16 KiB table page per distinct high 12 bits of a trigram:
// for ten source files that is hundreds of pages (megabytes zeroed and
// then collected) to hold a few thousand short lists.
type smallLists struct {
	pairs []uint64 // trigram<<40 | id
}

// add records that file id (ids ascending from call to call) holds tris.
func (s *smallLists) add(id int64, tris []Trigram) {
	for _, t := range tris {
		s.pairs = append(s.pairs, uint64(t)<<40|uint64(id))
	}
}

// sorted returns the lists in trigram order, their bytes in one buffer.
func (s *smallLists) sorted() []postingList {
	slices.Sort(s.pairs)
	var out []postingList
	buf := make([]byte, 0, 2*len(s.pairs))
	start := 0
	for i, p := range s.pairs {
		t, id := Trigram(p>>40), int64(p&(1<<40-1))
		if i == 0 || out[len(out)-1].tri != t {
			if i > 0 {
				out[len(out)-1].buf = buf[start:len(buf):len(buf)]
			}
			start = len(buf)
			out = append(out, postingList{tri: t})
		}
		l := &out[len(out)-1]
		buf = appendPosting(buf, l.last, id)
		l.last = id
	}
	if len(out) > 0 {
		out[len(out)-1].buf = buf[start:len(buf):len(buf)]
	}
	return out
}
