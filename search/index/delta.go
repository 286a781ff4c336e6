package index

import (
	"cmp"
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

// merged is d without the ids live does not hold, plus the lists of add
// (whose ids are all above d's).
func (d *delta) merged(live func(int64) bool, add *postingLists) (*delta, error) {
	m := map[Trigram][]int64{}
	for i, t := range d.tris {
		ids, err := decodePostings(nil, d.lists[i])
		if err != nil {
			return nil, err
		}
		if ids = slices.DeleteFunc(ids, func(id int64) bool { return !live(id) }); len(ids) > 0 {
			m[t] = ids
		}
	}
	for _, l := range add.lists {
		ids, err := decodePostings(nil, l.buf)
		if err != nil {
			return nil, err
		}
		m[l.tri] = append(m[l.tri], ids...)
	}
	out := &delta{}
	for t := range m {
		out.tris = append(out.tris, t)
	}
	slices.Sort(out.tris)
	for _, t := range out.tris {
		var buf []byte
		var last int64
		for _, id := range m[t] {
			buf = appendPosting(buf, last, id)
			last = id
		}
		out.lists = append(out.lists, buf)
	}
	return out, nil
}

// readDelta reads the delta ('delta' in lists; none: empty).
func readDelta(ctx context.Context, db querier) (*delta, error) {
	var b []byte
	err := db.QueryRowContext(ctx, `SELECT data FROM lists WHERE name = 'delta'`).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return &delta{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	d, err := decodeDelta(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return d, nil
}

// writeDelta replaces the delta.
func writeDelta(ctx context.Context, tx *sql.Tx, d *delta) error {
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO lists(name, data) VALUES('delta', ?)`, d.encode()); err != nil {
		return fmt.Errorf("write the index: %w", err)
	}
	return nil
}

// indexIntoDelta indexes paths (ids from firstID) into the delta, with
// their records appended to files; false (nothing written) when the delta
// would grow past deltaMaxBytes: the caller writes a segment instead.
func indexIntoDelta(ctx context.Context, tx *sql.Tx, o *Options, d *delta, paths []string, narrow map[string]bool, firstID int64, st *Stats, files *[]fileRecord) (bool, error) {
	lists := newPostingLists()
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
	// files ascend by id: a binary search, not a map of every id.
	live := func(id int64) bool {
		_, ok := slices.BinarySearchFunc(*files, id, func(f fileRecord, id int64) int { return cmp.Compare(f.id, id) })
		return ok
	}
	m, err := d.merged(live, lists)
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
