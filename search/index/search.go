package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
// tree, ready to answer any number of queries.
type Index struct {
	o     Options
	db    *sql.DB
	files []fileRow // by id order
	byID  map[int64]int
	segs  int
}

// fileRow is one row of files plus whether a query must search the file
// directly (not indexed, or changed since).
type fileRow struct {
	id     int64
	path   string
	direct bool
	narrow bool // listed by the walk that leaves hidden files out
}

// Open opens the index of o.Root and checks it against the tree: every
// directory's stat (ErrStale when one changed) and every file's stat (a
// changed file is searched directly by every query of this Index).
// ErrNoIndex when there is none, or it is of another version, another
// walk or damaged. Close it after use.
func Open(ctx context.Context, o Options) (*Index, error) {
	if _, err := os.Stat(o.dbPath()); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		return nil, err
	}
	ix := &Index{o: o, db: db, byID: map[int64]int{}}
	if err := ix.load(ctx, true); err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

// Close releases the database.
func (ix *Index) Close() error { return ix.db.Close() }

// openUnchecked is Open without the directory check (for status).
func openUnchecked(ctx context.Context, o Options) (*Index, error) {
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		return nil, err
	}
	ix := &Index{o: o, db: db, byID: map[int64]int{}}
	if err := ix.load(ctx, false); err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

func (ix *Index) load(ctx context.Context, checkDirs bool) error {
	meta, err := readMeta(ctx, ix.db)
	if err != nil {
		return err
	}
	if meta["root"] != ix.o.Root || meta["walk"] != ix.o.Walk.key() {
		return fmt.Errorf("%w: built for %s with %s", ErrNoIndex, meta["root"], meta["walk"])
	}
	if ix.segs, err = strconv.Atoi(meta["segments"]); err != nil {
		return fmt.Errorf("%w: segments %q", ErrNoIndex, meta["segments"])
	}
	if checkDirs {
		stale, err := ix.dirsChanged(ctx)
		if err != nil {
			return err
		}
		if stale {
			return ErrStale
		}
	}
	return ix.loadFiles(ctx)
}

// dirsChanged compares every recorded directory with the tree.
func (ix *Index) dirsChanged(ctx context.Context) (bool, error) {
	dirs, err := recordedDirs(ctx, ix.db)
	if err != nil {
		return false, err
	}
	return dirsDiffer(ctx, ix.o.Root, dirs)
}

// recordedDirs reads the dirs table.
func recordedDirs(ctx context.Context, db *sql.DB) ([]dirState, error) {
	rows, err := db.QueryContext(ctx, `SELECT path, mtime, ino, ignores FROM dirs`)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	defer rows.Close()
	var dirs []dirState
	for rows.Next() {
		var d dirState
		if err := rows.Scan(&d.path, &d.mtime, &d.ino, &d.ignores); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		dirs = append(dirs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return dirs, nil
}

// dirsDiffer stats every recorded directory: does one differ now?
func dirsDiffer(ctx context.Context, root string, dirs []dirState) (bool, error) {
	changed := parallelAny(ctx, len(dirs), func(i int) bool {
		now, ok := statDir(root, dirs[i].path)
		return !ok || now != dirs[i]
	})
	return changed, ctx.Err()
}

// loadFiles reads the file list and stats every file.
func (ix *Index) loadFiles(ctx context.Context) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT id, path, size, mtime, ino, indexed, narrow FROM files ORDER BY id`)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	var states []fileState
	for rows.Next() {
		var r fileRow
		var s fileState
		var indexed, narrow int
		if err := rows.Scan(&r.id, &r.path, &s.size, &s.mtime, &s.ino, &indexed, &narrow); err != nil {
			rows.Close()
			return fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		r.direct, r.narrow = indexed == 0, narrow != 0
		ix.byID[r.id] = len(ix.files)
		ix.files = append(ix.files, r)
		states = append(states, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	parallelAny(ctx, len(ix.files), func(i int) bool {
		now, ok := statFile(filepath.Join(ix.o.Root, filepath.FromSlash(ix.files[i].path)))
		if !ok || now != states[i] {
			ix.files[i].direct = true
		}
		return false
	})
	return ctx.Err()
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
	n := 0
	for _, f := range ix.files {
		if f.direct {
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
		return nil, err
	}
	keep := make([]bool, len(ix.files))
	if ids == nil { // all
		for i := range keep {
			keep[i] = true
		}
	}
	for _, id := range ids {
		if i, ok := ix.byID[id]; ok {
			keep[i] = true
		}
	}
	var out []string
	for i, f := range ix.files {
		p := f.path
		if scope.Prefix != "" {
			rest, ok := strings.CutPrefix(p, scope.Prefix+"/")
			if !ok {
				continue
			}
			p = rest
		}
		if (!keep[i] && !f.direct) || (scope.NoHidden && !f.narrow) || (scope.NoNodeModules && underNodeModules(p)) ||
			(scope.Keep != nil && !scope.Keep(p)) {
			continue
		}
		out = append(out, p)
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
		return ix.posting(ctx, q.Tri)
	}
	var acc []int64
	for i, s := range q.Sub {
		ids, err := ix.eval(ctx, s)
		if err != nil {
			return nil, err
		}
		switch {
		case i == 0:
			acc = ids
		case q.Op == OpAnd:
			acc = intersect(acc, ids)
		default:
			acc = union(acc, ids)
		}
	}
	return acc, nil
}

// posting reads the ids holding t across every segment.
func (ix *Index) posting(ctx context.Context, t Trigram) ([]int64, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT ids FROM postings WHERE tri = ? ORDER BY seg`, int64(t))
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, fmt.Errorf("read the index: %w", err)
		}
		var seg []int64
		if seg, err = decodePostings(nil, b); err != nil {
			return nil, err
		}
		ids = union(ids, seg)
	}
	return ids, rows.Err()
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
