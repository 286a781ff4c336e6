package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	if errors.Is(err, ErrNoIndex) {
		return build(ctx, &o)
	}
	return st, err
}

func refresh(ctx context.Context, o *Options) (*Stats, error) {
	if _, err := os.Stat(o.dbPath()); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
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
	segs, err := strconv.Atoi(meta["segments"])
	if err != nil {
		return nil, fmt.Errorf("%w: segments %q", ErrNoIndex, meta["segments"])
	}
	refreshes, err := strconv.Atoi(meta["refreshes"])
	if err != nil {
		return nil, fmt.Errorf("%w: refreshes %q", ErrNoIndex, meta["refreshes"])
	}
	var maxID int64
	if refreshes >= o.maxSegments() {
		return nil, fmt.Errorf("%w: %d refreshes since the build, rebuilding", ErrNoIndex, refreshes)
	}
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM files`).Scan(&maxID); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	known, err := knownFiles(ctx, db)
	if err != nil {
		return nil, err
	}
	dirs, paths, narrow, err := refreshList(ctx, o, db, known)
	if err != nil {
		return nil, err
	}
	st := &Stats{}
	var changed []string
	var drop, toNarrow, toWide []int64
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		seen[p] = true
		k, ok := known[p]
		if ok {
			if now, ok := statFile(filepath.Join(o.Root, filepath.FromSlash(p))); ok && now == k.st {
				switch n := inNarrow(narrow, p); {
				case n && !k.narrow:
					toNarrow = append(toNarrow, k.id)
				case !n && k.narrow:
					toWide = append(toWide, k.id)
				}
				st.Files++
				if k.indexed {
					st.Indexed++
					st.Bytes += k.st.size
				}
				continue
			}
			drop = append(drop, k.id)
		}
		changed = append(changed, p)
	}
	for p, k := range known {
		if !seen[p] {
			drop = append(drop, k.id)
			st.Removed++
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	del, err := tx.PrepareContext(ctx, `DELETE FROM files WHERE id = ?`)
	if err != nil {
		return nil, err
	}
	defer del.Close()
	for _, id := range drop {
		if _, err := del.ExecContext(ctx, id); err != nil {
			return nil, fmt.Errorf("update the index: %w", err)
		}
	}
	// Ignore files changed: hidden files they whitelist come and go.
	for flag, ids := range map[int][]int64{1: toNarrow, 0: toWide} {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE files SET narrow = ? WHERE id = ?`, flag, id); err != nil {
				return nil, fmt.Errorf("update the index: %w", err)
			}
		}
	}
	if len(changed) > 0 {
		sub := &Stats{}
		// Segments are numbered from 0: the new ones from number segs.
		if segs, err = insertFiles(ctx, tx, o, changed, narrow, maxID+1, segs, sub); err != nil {
			return nil, err
		}
		refreshes++
		st.Files += sub.Files
		st.Indexed += sub.Indexed
		st.Bytes += sub.Bytes
		st.Changed = len(changed)
	}
	if err := writeDirs(ctx, tx, dirs); err != nil {
		return nil, err
	}
	for k, v := range map[string]string{
		"built": time.Now().UTC().Format(time.RFC3339), "segments": strconv.Itoa(segs), "refreshes": strconv.Itoa(refreshes),
	} {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, k, v); err != nil {
			return nil, fmt.Errorf("update the index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("update the index: %w", err)
	}
	if fi, err := os.Stat(o.dbPath()); err == nil {
		st.IndexSize = fi.Size()
	}
	return st, nil
}

// refreshList is what a refresh compares the index with: the directories
// and files of the tree now. When no directory (nor ignore file) changed
// since the index was written, no file was added or removed and the walk
// would list the recorded files: they are taken as they are, and only
// their stats are compared. Otherwise the tree is walked again.
func refreshList(ctx context.Context, o *Options, db *sql.DB, known map[string]knownFile) ([]dirState, []string, map[string]bool, error) {
	recorded, err := recordedDirs(ctx, db)
	if err != nil {
		return nil, nil, nil, err
	}
	if changed, err := dirsDiffer(ctx, o.Root, recorded); err != nil {
		return nil, nil, nil, err
	} else if !changed {
		paths := make([]string, 0, len(known))
		var narrow map[string]bool
		if o.Walk.Hidden {
			narrow = map[string]bool{}
		}
		for p, k := range known {
			paths = append(paths, p)
			if narrow != nil && k.narrow {
				narrow[p] = true
			}
		}
		slices.SortFunc(paths, walkLess)
		return recorded, paths, narrow, nil
	}
	dirs, err := dirStates(ctx, o)
	if err != nil {
		return nil, nil, nil, err
	}
	paths, narrow, err := listFiles(ctx, o)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("list the files of %s: %w", o.Root, err)
	}
	return dirs, paths, narrow, nil
}

// knownFile is a file as the index recorded it.
type knownFile struct {
	id      int64
	st      fileState
	indexed bool
	narrow  bool
}

func knownFiles(ctx context.Context, db *sql.DB) (map[string]knownFile, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, path, size, mtime, ino, indexed, narrow FROM files`)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	defer rows.Close()
	out := map[string]knownFile{}
	for rows.Next() {
		var k knownFile
		var p string
		var indexed, narrow int
		if err := rows.Scan(&k.id, &p, &k.st.size, &k.st.mtime, &k.st.ino, &indexed, &narrow); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		k.indexed, k.narrow = indexed != 0, narrow != 0
		out[p] = k
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	return out, nil
}

// Delete removes the index of o (nothing when there is none).
func Delete(o Options) error {
	for _, p := range []string{o.dbPath(), o.dbPath() + "-journal", o.lockPath()} {
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
	st.Files, st.Segments, st.Stale = len(ix.files), ix.segs, ix.Direct()
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM files WHERE indexed = 1`).Scan(&st.Indexed); err != nil {
		return nil, err
	}
	st.Stale -= len(ix.files) - st.Indexed
	ix.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'built'`).Scan(&st.Built)
	if fi, err := os.Stat(o.dbPath()); err == nil {
		st.IndexSize = fi.Size()
	}
	return st, nil
}
