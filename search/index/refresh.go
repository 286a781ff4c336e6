package index

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Refresh brings the index up to date with the tree: the walk lists the
// files again, files added or changed since (by stat) are indexed into a
// new segment, removed ones dropped, all in one transaction (a failure
// leaves the index as it was). With no usable index, or after
// MaxSegments refreshes, it builds the whole index instead.
func Refresh(ctx context.Context, o Options) (*Stats, error) {
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the index directory: %w", err)
	}
	unlock, err := lockBuilder(ctx, o.lockPath())
	if err != nil {
		return nil, fmt.Errorf("lock the index: %w", err)
	}
	defer unlock()
	st, err := refresh(ctx, &o)
	if errors.Is(err, ErrNoIndex) || isDamage(err) {
		return build(ctx, &o)
	}
	return st, err
}

func refresh(ctx context.Context, o *Options) (*Stats, error) {
	if _, err := os.Stat(o.dbPath()); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	if err := damaged(o); err != nil {
		return nil, err // built anew
	}
	db, err := openDB(o.dbPath(), false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	meta, err := readMeta(ctx, db)
	if err != nil {
		return nil, err
	}
	if meta["root"] != o.Root || meta["walk"] != o.Walk.key() {
		return nil, fmt.Errorf("%w: built for another tree or walk", ErrNoIndex)
	}
	var segs, base, refreshes int
	for k, v := range map[string]*int{"segments": &segs, "base": &base, "refreshes": &refreshes} {
		if *v, err = strconv.Atoi(meta[k]); err != nil {
			return nil, fmt.Errorf("%w: %s %q", ErrNoIndex, k, meta[k])
		}
	}
	known, recorded, err := o.cache.lists(ctx, db, meta["generation"])
	if err != nil {
		return nil, err
	}
	var maxID int64
	if len(known) > 0 {
		maxID = known[len(known)-1].id
	}
	if o.Root == "" || len(known) > 0 && maxID > int64(4*len(known))+1000 {
		// Most ids are dead (files changed many times): their postings
		// are garbage the queries skip; build afresh.
		return nil, fmt.Errorf("%w: %d ids for %d files, rebuilding", ErrNoIndex, maxID, len(known))
	}
	dirs, paths, narrow, recheck, err := refreshList(ctx, o, recorded, known)
	if err != nil {
		return nil, err
	}
	st := &Stats{Denied: deniedDirs(dirs)}
	var changed []string
	kept := o.cache.spare(len(known))
	// keep reports whether the recorded k is as it was (stat'ed again
	// when recheck says so), and keeps it.
	again := func(k *fileRecord) bool { return recheck(k.path) }
	if sus := o.cache.suspects(known, o.hint); sus != nil {
		// A watcher's hint looked up in its path index: the records to
		// check again by id, in one pass beside the ascending records
		// instead of a lookup of every path in the hint.
		next := 0
		again = func(k *fileRecord) bool {
			for next < len(sus) && sus[next] < k.id {
				next++
			}
			return next < len(sus) && sus[next] == k.id
		}
	}
	keep := func(k *fileRecord, narrow bool) bool {
		if again(k) {
			// A file a watcher saw written is indexed again even when its
			// stat looks the same (written twice within one tick of the
			// file system's clock, or its times set back): the event
			// says what stat cannot.
			if now, ok := statFile(filepath.Join(o.Root, filepath.FromSlash(k.path))); !ok || now != k.st || (o.hint != nil && o.hint.files[k.path]) {
				return false
			}
		}
		r := *k
		r.narrow = narrow
		kept = append(kept, r)
		st.Files++
		if k.indexed {
			st.Indexed++
			st.Bytes += k.st.size
		}
		return true
	}
	if paths == nil {
		// The recorded files, as they are: no map of 86,000 paths.
		for i := range known {
			if !keep(&known[i], known[i].narrow) {
				changed = append(changed, known[i].path)
			}
		}
	} else {
		byPath := make(map[string]*fileRecord, len(known))
		for i := range known {
			byPath[known[i].path] = &known[i]
		}
		for _, p := range paths {
			k := byPath[p]
			if k == nil || !keep(k, inNarrow(narrow, p)) {
				changed = append(changed, p)
			}
			delete(byPath, p)
		}
		st.Removed = len(byPath)
	}
	slices.SortFunc(kept, func(a, b fileRecord) int { return cmp.Compare(a.id, b.id) })
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if len(changed) > 0 {
		sub := &Stats{}
		d, err := readDelta(ctx, tx)
		if err != nil {
			return nil, err
		}
		inDelta, err := indexIntoDelta(ctx, tx, o, d, droppedIDs(known, kept), changed, narrow, maxID+1, sub, &kept)
		if err != nil {
			return nil, err
		}
		if !inDelta {
			// Too much for the delta: a segment of its own (segments are
			// numbered from 0: the new ones from number segs).
			sub = &Stats{}
			if segs, err = insertFiles(ctx, tx, o, changed, narrow, maxID+1, segs, sub, &kept); err != nil {
				return nil, err
			}
		}
		refreshes++
		st.Files += sub.Files
		st.Indexed += sub.Indexed
		st.Bytes += sub.Bytes
		st.Changed = len(changed)
	}
	if segs-base > o.maxSegments() {
		if err := mergeSegments(ctx, tx, base, segs, kept); err != nil {
			return nil, err
		}
		segs = base + 1
	}
	// Only what changed is written: the chunks of the file list whose
	// records differ, the ids never indexed, the directory list.
	if err := writeChunks(ctx, tx, kept, changedChunks(known, kept)); err != nil {
		return nil, err
	}
	if !slices.Equal(unindexedIDs(known), unindexedIDs(kept)) {
		if err := writeUnindexed(ctx, tx, kept); err != nil {
			return nil, err
		}
	}
	if !slices.Equal(dirs, recorded) {
		if err := writeDirs(ctx, tx, dirs); err != nil {
			return nil, err
		}
	}
	gen := newGeneration()
	if err := writeMetaValues(ctx, tx, map[string]string{
		"built": time.Now().UTC().Format(time.RFC3339), "segments": strconv.Itoa(segs), "refreshes": strconv.Itoa(refreshes),
		"generation": gen, "denied": strings.Join(st.Denied, "\n"), // written by every refresh: indexes older than the key get it
	}); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("update the index: %w", err)
	}
	o.cache.keep(gen, kept, dirs)
	if fi, err := os.Stat(o.dbPath()); err == nil {
		st.IndexSize = fi.Size()
	}
	return st, nil
}

// mergeSegments replaces the segments a refresh added (from base to
// segs) by one, numbered base, holding only the ids still listed: the
// refreshes' segments are small (the files changed since the build), so
// this keeps a query's lookups per trigram few without rebuilding.
func mergeSegments(ctx context.Context, tx *sql.Tx, base, segs int, files []fileRecord) error {
	live := make(map[int64]bool, len(files))
	for _, f := range files {
		live[f.id] = true
	}
	rows, err := tx.QueryContext(ctx, `SELECT tri, ids, sum FROM postings WHERE seg >= ? ORDER BY tri, seg`, base)
	if err != nil {
		return fmt.Errorf("merge the index: %w", err)
	}
	merged := map[Trigram][]int64{}
	for rows.Next() {
		var t, sum int64
		var b []byte
		if err := rows.Scan(&t, &b, &sum); err != nil {
			rows.Close()
			return fmt.Errorf("merge the index: %w", err)
		}
		if err := checkPosting(Trigram(t), b, sum); err != nil {
			rows.Close()
			return err
		}
		ids, err := decodePostings(nil, b)
		if err != nil {
			rows.Close()
			return fmt.Errorf("merge the index: %w", err)
		}
		ids = slices.DeleteFunc(ids, func(id int64) bool { return !live[id] })
		if cur, ok := merged[Trigram(t)]; ok {
			ids = union(cur, ids)
		}
		if ids == nil {
			ids = []int64{} // nil is "every id" to union
		}
		merged[Trigram(t)] = ids
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("merge the index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM postings WHERE seg >= ?`, base); err != nil {
		return fmt.Errorf("merge the index: %w", err)
	}
	tris := slices.Sorted(maps.Keys(merged))
	for _, t := range tris {
		ids := merged[t]
		if len(ids) == 0 {
			continue
		}
		var buf []byte
		var last int64
		for _, id := range ids {
			buf = appendPosting(buf, last, id)
			last = id
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO postings(seg, tri, ids, sum) VALUES(?, ?, ?, ?)`, base, int64(t), buf, postingSum(t, buf)); err != nil {
			return fmt.Errorf("merge the index: %w", err)
		}
	}
	return nil
}

// refreshList is what a refresh compares the index with: the directories
// and files of the tree now (nil paths: the recorded ones), and which of
// the files to stat again (recheck). When no directory lists other entries (nor had its ignore
// files changed) since the index was written, no file was added or
// removed and the walk would list the recorded files: they are taken as
// they are. Otherwise the tree is walked again. With a watcher's hint
// (o.hint), only the directories and files it names are looked at: the
// watcher saw no change anywhere else.
func refreshList(ctx context.Context, o *Options, recorded []dirState, known []fileRecord) (dirs []dirState, paths []string, narrow map[string]bool, recheck func(string) bool, err error) {
	recheck = func(string) bool { return true }
	var same bool
	if o.hint != nil {
		dirs, same = hintedDirs(o, recorded)
		recheck = func(p string) bool { return o.hint.files[p] }
	} else {
		dirs, same, err = dirsNow(ctx, o.Root, recorded)
		if err != nil {
			return nil, nil, nil, nil, err
		}
	}
	if same {
		// nil paths: the recorded files, as they are.
		return dirs, nil, nil, recheck, nil
	}
	if dirs, err = dirStates(ctx, o); err != nil {
		return nil, nil, nil, nil, err
	}
	if paths, narrow, err = listFiles(ctx, o); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("list the files of %s: %w", o.Root, err)
	}
	return dirs, paths, narrow, func(string) bool { return true }, nil
}

// hintedDirs checks the directories a watcher saw change: the recorded
// list with their new stats, and whether each still lists the same
// entries (a directory it does not know: no).
func hintedDirs(o *Options, recorded []dirState) ([]dirState, bool) {
	dirs := slices.Clone(recorded)
	found := 0
	for i, d := range dirs {
		if !o.hint.dirs[d.path] {
			continue
		}
		found++
		now, ok := statDir(o.Root, d.path)
		if !ok {
			return nil, false
		}
		if dirs[i], ok = sameFileSet(o.Root, d, now); !ok {
			return nil, false
		}
		if now.mtime == d.mtime && d.names != "" && namesDigest(filepath.Join(o.Root, filepath.FromSlash(d.path))) == "" {
			return nil, false // made unreadable (a chmod leaves the mtime): the walk records it
		}
	}
	return dirs, found == len(o.hint.dirs)
}

// dirsNow stats every recorded directory: their states now, and whether
// each lists the same entries as recorded.
func dirsNow(ctx context.Context, root string, recorded []dirState) ([]dirState, bool, error) {
	dirs := slices.Clone(recorded)
	changed := parallelAny(ctx, len(dirs), func(i int) bool {
		now, ok := statDir(root, recorded[i].path)
		if !ok {
			return true
		}
		dirs[i], ok = sameFileSet(root, recorded[i], now)
		return !ok
	})
	return dirs, !changed, ctx.Err()
}

// Delete removes the index of o (nothing when there is none).
func Delete(o Options) error {
	for _, p := range []string{o.dbPath(), o.dbPath() + "-journal", o.lockPath(), o.watchLockPath(), o.socketPath()} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("delete the index: %w", err)
		}
	}
	if err := os.Remove(o.Dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		// Leftovers of a build cut short: say so rather than hide them.
		return fmt.Errorf("delete the index: %w", err)
	}
	return nil
}

// ReadStatus describes the index of o as it stands against the tree.
func ReadStatus(ctx context.Context, o Options) (*Status, error) {
	ix, err := Open(ctx, o)
	st := &Status{Root: o.Root, Path: o.dbPath()}
	switch {
	case errors.Is(err, ErrStale):
		st.DirsStale = true
		ix, err = openUnchecked(ctx, o)
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	defer ix.Close()
	if ix.files == nil {
		if ix.files, err = readFiles(ctx, ix.tx); err != nil {
			return nil, err
		}
		ix.direct = make([]bool, len(ix.files))
		for i, f := range ix.files {
			ix.direct[i] = !f.indexed
		}
	}
	st.Files, st.Segments, st.Stale = len(ix.files), ix.segs, ix.Direct()
	for _, f := range ix.files {
		if f.indexed {
			st.Indexed++
		}
	}
	st.Stale -= len(ix.files) - st.Indexed
	st.Built = ix.built
	st.Watched = ix.watched
	if fi, err := os.Stat(o.dbPath()); err == nil {
		st.IndexSize = fi.Size()
	}
	return st, nil
}
