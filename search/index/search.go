package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ErrStale: the tree's file set changed since the index was built or
// refreshed (a directory or an ignore file changed); the caller walks
// (and a refresh brings the index up to date).
var ErrStale = errors.New("the index is out of date")

// Index is an open index for queries: its file list checked against the
// tree, ready to answer any number of queries. It reads one snapshot of
// the database (a read transaction), whatever refreshes commit meanwhile.
type Index struct {
	o      Options
	db     *sql.DB
	tx     *sql.Tx
	files  []fileRecord // in id order; nil when watched (read by chunks instead)
	direct []bool       // per file: searched directly (not indexed, or changed since)
	// unindexed are the ids of the files not in the postings, when
	// watched (files is nil): every query searches them.
	unindexed []int64
	delta     *delta // the postings refreshes added since the build
	segs      int
	built     string
	denied    []string    // directories the walk could not read (meta "denied")
	watched   bool        // a watcher vouched for the index: no file was stat'ed
	opened    os.FileInfo // index.db when opened (damage is recorded only while it is still that file)
}

// Open opens the index of o.Root and checks it against the tree. When a
// watcher keeps the index (Watch), it asks the watcher to apply every
// change made before the call and reads the index as it then is, with no
// stat of the tree. Otherwise it stats every directory (ErrStale when one
// lists other entries now, or its ignore files changed) and every file (a
// changed file is searched directly by every query of this Index).
// ErrNoIndex when there is none, or it is of another version, another
// walk or damaged. Close it after use.
func Open(ctx context.Context, o Options) (*Index, error) {
	return open(ctx, o, true)
}

// Close releases the database.
func (ix *Index) Close() error {
	ix.tx.Rollback()
	return ix.db.Close()
}

// openUnchecked is Open without the directory check (for status).
func openUnchecked(ctx context.Context, o Options) (*Index, error) {
	return open(ctx, o, false)
}

func open(ctx context.Context, o Options, checkDirs bool) (*Index, error) {
	ix, err := openOnce(ctx, o, checkDirs)
	if err != nil && !isDamage(err) && rollBackHotJournal(ctx, &o) {
		ix, err = openOnce(ctx, o, checkDirs)
	}
	return ix, err
}

// rollBackHotJournal: a writer killed during a refresh (a watcher of a
// session ended with kill -9) leaves a journal beside the database that
// only a connection allowed to write may roll back; until one did, every
// read-only open failed ("attempt to write a readonly database"), and
// searches walked until the next gopi index. It opens the database to
// write and reads it, which makes SQLite roll the journal back if it is
// hot (a live writer's journal is not: SQLite leaves it alone). True
// when there was a journal and the read succeeded.
func rollBackHotJournal(ctx context.Context, o *Options) bool {
	if fi, err := os.Stat(o.dbPath() + "-journal"); err != nil || fi.Size() == 0 {
		return false
	}
	db, err := openDB(o.dbPath(), false)
	if err != nil {
		return false
	}
	defer db.Close()
	var n int
	return db.QueryRowContext(ctx, `SELECT count(*) FROM meta`).Scan(&n) == nil
}

func openOnce(ctx context.Context, o Options, checkDirs bool) (*Index, error) {
	opened, err := os.Stat(o.dbPath())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoIndex, err) // fs.ErrNotExist: none built
	}
	if err := damaged(&o); err != nil {
		return nil, err
	}
	watched := !o.noWatcher && syncWatcher(ctx, &o)
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		return nil, err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	ix := &Index{o: o, db: db, tx: tx, watched: watched, opened: opened}
	if err := ix.load(ctx, checkDirs); err != nil {
		ix.Close()
		return nil, noteDamage(&o, opened, err)
	}
	return ix, nil
}

func (ix *Index) load(ctx context.Context, checkDirs bool) error {
	meta, err := readMeta(ctx, ix.tx)
	if err != nil {
		return err
	}
	if meta["root"] != ix.o.Root || meta["walk"] != ix.o.Walk.key() {
		return fmt.Errorf("%w: built for %s with %s", ErrNoIndex, meta["root"], meta["walk"])
	}
	if ix.segs, err = strconv.Atoi(meta["segments"]); err != nil {
		return fmt.Errorf("%w: segments %q", ErrNoIndex, meta["segments"])
	}
	ix.built = meta["built"]
	if meta["denied"] != "" {
		ix.denied = strings.Split(meta["denied"], "\n")
	}
	if ix.delta, err = readDelta(ctx, ix.tx); err != nil {
		return err
	}
	if ix.watched {
		// Nothing to stat: each query reads the chunks of the file list
		// holding its candidates, and the files never indexed.
		ix.unindexed, err = readUnindexed(ctx, ix.tx)
		return err
	}
	files, err := readFiles(ctx, ix.tx)
	if err != nil {
		return err
	}
	ix.files = files
	ix.direct = make([]bool, len(files))
	for i, f := range files {
		ix.direct[i] = !f.indexed
	}
	if checkDirs {
		dirs, err := readDirs(ctx, ix.tx)
		if err != nil {
			return err
		}
		if _, same, err := dirsNow(ctx, ix.o.Root, dirs); err != nil {
			return err
		} else if !same {
			return ErrStale
		}
	}
	// A file gone, or no longer a regular file, under a directory that
	// lists the same names (replaced by a link): the walk differs.
	gone := parallelAny(ctx, len(files), func(i int) bool {
		now, ok := statFile(filepath.Join(ix.o.Root, filepath.FromSlash(files[i].path)))
		if !ok {
			return true
		}
		if now != files[i].st {
			ix.direct[i] = true
		}
		return false
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if gone && checkDirs {
		return ErrStale
	}
	return nil
}

// deniedBelow reports whether a directory the index's walk could not read
// lies at or below the tree's directory prefix ("" the root). A search
// there walks: grep reports such a directory as unreadable (as ripgrep
// does), and the index's file list cannot say so.
func (ix *Index) deniedBelow(prefix string) bool {
	for _, d := range ix.denied {
		if prefix == "" || d == prefix || strings.HasPrefix(d, prefix+"/") {
			return true
		}
	}
	return false
}

// parallelAny runs f(0..n-1) on every core and reports whether any call
// returned true (the calls after that may be skipped).
func parallelAny(ctx context.Context, n int, f func(i int) bool) bool {
	workers := min(runtime.GOMAXPROCS(0), max(n/256, 1))
	var mu sync.Mutex
	found, next := false, 0
	const chunk = 256
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				lo := next
				next += chunk
				stop := found || ctx.Err() != nil
				mu.Unlock()
				if stop || lo >= n {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					if f(i) {
						mu.Lock()
						found = true
						mu.Unlock()
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	return found
}

// Direct is how many files every query searches directly (not indexed,
// or changed since indexing).
func (ix *Index) Direct() int {
	if ix.files == nil {
		return len(ix.unindexed)
	}
	n := 0
	for _, d := range ix.direct {
		if d {
			n++
		}
	}
	return n
}

// Scope narrows the index's walk to a search's: the index lists what its
// Walk lists, and a search may leave out hidden files or node_modules
// where the index's walk keeps them (never the reverse: see Finder).
type Scope struct {
	NoHidden      bool              // leave out what a walk without hidden files leaves out
	NoNodeModules bool              // leave out files below node_modules directories (below Prefix)
	Keep          func(string) bool // when set, keep only the paths (below Prefix) it accepts (grep.PathFilter)
	// Prefix, when set, is a directory of the tree (relative, slash-
	// separated): only the files below it, with paths relative to it.
	Prefix string
}

// Candidates returns, in the walk's order, the relative slash paths of
// the files in scope that may satisfy q: those the postings say hold its
// trigrams, and every file searched directly.
func (ix *Index) Candidates(ctx context.Context, q *Query, scope Scope) ([]string, error) {
	ids, err := ix.eval(ctx, q)
	if err != nil {
		return nil, noteDamage(&ix.o, ix.opened, err)
	}
	var out []string
	// take applies the scope to a file the postings (or a direct search)
	// keep.
	take := func(f *fileRecord, p string) {
		if scope.Prefix != "" {
			rest, ok := strings.CutPrefix(p, scope.Prefix+"/")
			if !ok {
				return
			}
			p = rest
		}
		if (scope.NoHidden && !f.narrow) || (scope.NoNodeModules && underNodeModules(p)) || (scope.Keep != nil && !scope.Keep(p)) {
			return
		}
		out = append(out, p)
	}
	// ids and the files both ascend: one merge (ids of files dropped
	// since are in no file). nil ids: every file.
	next := 0
	kept := func(id int64) bool {
		if ids == nil {
			return true
		}
		for next < len(ids) && ids[next] < id {
			next++
		}
		return next < len(ids) && ids[next] == id
	}
	if ix.files != nil {
		for i := range ix.files {
			if f := &ix.files[i]; kept(f.id) || ix.direct[i] {
				take(f, f.path)
			}
		}
	} else {
		// Only the chunks of the file list holding a candidate or a
		// file never indexed (nil keys: every chunk).
		var keys []int64
		if ids != nil {
			keys = chunkKeys(union(ids, ix.unindexed))
		}
		if err := scanChunks(ctx, ix.tx, keys, func(f *fileRecord, path []byte) {
			if kept(f.id) || !f.indexed {
				take(f, string(path))
			}
		}); err != nil {
			return nil, fmt.Errorf("read the index: %w", err)
		}
	}
	slices.SortFunc(out, walkLess)
	return out, nil
}

// eval returns the ascending ids satisfying q; nil means every file.
func (ix *Index) eval(ctx context.Context, q *Query) ([]int64, error) {
	switch q.Op {
	case OpAll:
		return nil, nil
	case OpNone:
		return []int64{}, nil
	case OpTri:
		return ix.posting(ctx, q.Tri, nil)
	case OpOr:
		var acc []int64
		for i, s := range q.Sub {
			ids, err := ix.eval(ctx, s)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				acc = ids
			} else {
				acc = union(acc, ids)
			}
		}
		return acc, nil
	}
	subs, sizes, err := ix.rarestFirst(ctx, q.Sub)
	if err != nil {
		return nil, err
	}
	var acc []int64
	for i, s := range subs {
		if i > 0 && acc != nil && !worthReading(len(acc), sizes[i]) {
			// Leaving a condition out only widens the candidates.
			break
		}
		var ids []int64
		var err error
		if tris := orOfTrigrams(s); tris != nil && i > 0 && acc != nil {
			// Intersected as each list is decoded: no slice of a whole list.
			for j, t := range tris {
				var some []int64
				if some, err = ix.posting(ctx, t, acc); err != nil {
					break
				}
				if j == 0 {
					ids = some
				} else {
					ids = union(ids, some)
				}
			}
		} else if ids, err = ix.eval(ctx, s); err == nil && i > 0 {
			ids = intersect(acc, ids)
		}
		if err != nil {
			return nil, err
		}
		acc = ids
	}
	return acc, nil
}

// worthReading: an AND whose conditions so far leave candidates files
// reads the posting list of size bytes of its next condition. Reading a
// list costs about as much per stored byte as grep spends on a candidate
// file per bytesPerCandidate bytes, and the lists after the rarest few
// of one literal are mostly of files the first ones already excluded
// (their trigrams occur together), so a long list is read only while
// there are many candidates it might remove; and none once the
// candidates are few enough for grep to read them at once.
// A condition whose size is not known beforehand (unknownSize: an OR of
// more than trigrams) is read while there are more than a few candidates.
func worthReading(candidates int, size int64) bool {
	return candidates > enoughCandidates && (size == unknownSize || size <= int64(candidates)*bytesPerCandidate)
}

// unknownSize is the size rarestFirst gives a condition it cannot size.
const unknownSize = math.MaxInt64

// orOfTrigrams are the trigrams of a condition that is one trigram or an
// OR of trigrams (a case-insensitive literal's: one per case variant);
// nil for any other.
func orOfTrigrams(q *Query) []Trigram {
	if q.Op == OpTri {
		return []Trigram{q.Tri}
	}
	if q.Op != OpOr {
		return nil
	}
	tris := make([]Trigram, 0, len(q.Sub))
	for _, s := range q.Sub {
		if s.Op != OpTri {
			return nil
		}
		tris = append(tris, s.Tri)
	}
	return tris
}

// enoughCandidates: an AND stops reading posting lists once this few
// files satisfy the conditions read so far.
const enoughCandidates = 16

// bytesPerCandidate: see worthReading.
const bytesPerCandidate = 64

// rarestFirst orders the conditions of an AND so that the trigrams with
// the shortest posting lists (by stored bytes, one query for all; an OR
// of trigrams by the sum of its lists') come first and the other
// conditions last: the intersection shrinks fastest and the long lists
// of common trigrams are often never read. sizes are the stored bytes of
// each condition's lists (unknownSize for a condition not sized).
func (ix *Index) rarestFirst(ctx context.Context, subs []*Query) ([]*Query, []int64, error) {
	var tris []any
	for _, s := range subs {
		for _, t := range orOfTrigrams(s) {
			tris = append(tris, int64(t))
		}
	}
	size := map[Trigram]int64{}
	if len(tris) > 0 {
		rows, err := ix.tx.QueryContext(ctx, `SELECT tri, sum(length(ids)) FROM postings WHERE tri IN (?`+strings.Repeat(", ?", len(tris)-1)+`) GROUP BY tri`, tris...)
		if err != nil {
			return nil, nil, fmt.Errorf("read the index: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var t, n int64
			if err := rows.Scan(&t, &n); err != nil {
				return nil, nil, fmt.Errorf("read the index: %w", err)
			}
			size[Trigram(t)] = n
		}
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("read the index: %w", err)
		}
	}
	cost := func(s *Query) int64 {
		ts := orOfTrigrams(s)
		if ts == nil {
			return unknownSize
		}
		n := int64(0) // 0 when no file holds it: the AND is empty
		for _, t := range ts {
			n += size[t] + int64(len(ix.delta.list(t)))
		}
		return n
	}
	out := slices.Clone(subs)
	slices.SortStableFunc(out, func(a, b *Query) int { return cmp.Compare(cost(a), cost(b)) })
	sizes := make([]int64, len(out))
	for i, s := range out {
		sizes[i] = cost(s)
	}
	return out, sizes, nil
}

// posting reads the ids holding t across every segment and the delta;
// with within (ascending, not nil) only those of within: each list is
// then intersected as it is decoded.
func (ix *Index) posting(ctx context.Context, t Trigram, within []int64) ([]int64, error) {
	rows, err := ix.tx.QueryContext(ctx, `SELECT ids, sum FROM postings WHERE tri = ? ORDER BY seg`, int64(t))
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	defer rows.Close()
	var p postingUnion
	if within != nil {
		p.within, p.hit = within, make([]bool, len(within))
	}
	if err := p.add(ix.delta.list(t)); err != nil {
		return nil, err
	}
	for rows.Next() {
		var b sql.RawBytes // valid until Next: decoded before it
		var sum int64
		if err := rows.Scan(&b, &sum); err != nil {
			return nil, fmt.Errorf("read the index: %w", err)
		}
		if err := checkPosting(t, b, sum); err != nil {
			return nil, err
		}
		if err := p.add(b); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	return p.result(), nil
}

// postingUnion gathers the ids of the lists (segments, the delta) of one
// trigram. The build's segments hold ascending ranges of ids, so most
// lists append; a list that does not (a refresh's, the delta) is merged.
// With within set, only the ids of within are kept, marked in hit.
type postingUnion struct {
	ids    []int64
	within []int64
	hit    []bool
}

func (p *postingUnion) add(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if p.within != nil {
		return markPostings(b, p.within, p.hit)
	}
	if len(p.ids) == 0 {
		ids, err := decodePostings(p.ids, b)
		p.ids = ids
		return err
	}
	first, n := binary.Uvarint(b)
	if n <= 0 {
		return errBadPosting
	}
	if int64(first) > p.ids[len(p.ids)-1] {
		ids, err := decodePostings(p.ids, b)
		p.ids = ids
		return err
	}
	more, err := decodePostings(nil, b)
	if err != nil {
		return err
	}
	p.ids = union(p.ids, more)
	return nil
}

func (p *postingUnion) result() []int64 {
	if p.within == nil {
		if p.ids == nil {
			return []int64{} // nil is "every id"
		}
		return p.ids
	}
	out := []int64{}
	for i, h := range p.hit {
		if h {
			out = append(out, p.within[i])
		}
	}
	return out
}

// markPostings marks in hit the ids of within (ascending) that the
// posting list b holds, decoding b once without keeping it.
func markPostings(b []byte, within []int64, hit []bool) error {
	var id int64
	j := 0
	for len(b) > 0 && j < len(within) {
		gap, n := binary.Uvarint(b)
		if n <= 0 {
			return errBadPosting
		}
		id += int64(gap)
		b = b[n:]
		for j < len(within) && within[j] < id {
			j++
		}
		if j < len(within) && within[j] == id {
			hit[j] = true
			j++
		}
	}
	return nil
}

// intersect and union treat nil as every id.
func intersect(a, b []int64) []int64 {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := []int64{}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func union(a, b []int64) []int64 {
	if a == nil || b == nil {
		return nil
	}
	out := make([]int64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
