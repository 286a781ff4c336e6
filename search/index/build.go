package index

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"
)

// indexedFile is one file read by a build worker.
type indexedFile struct {
	id      int64
	path    string
	st      fileState
	indexed bool
	tris    []Trigram // sorted; nil when not indexed
	ok      bool      // false: the file vanished while being read
}

// postingLists accumulates posting lists in id order. slot finds a
// trigram's list: a two-level table (the trigram's high 12 bits, then its
// low 12) holding 1 + the list's index in lists, 0 for none yet. It costs
// less than a map's lookups (a third of a build), and its second level is
// allocated only where trigrams occur (a small tree touches few).
type postingLists struct {
	slot  [1 << 12]*[1 << 12]int32
	lists []postingList
	bytes int // bytes of posting lists held
}

type postingList struct {
	tri  Trigram
	last int64
	buf  []byte
}

func newPostingLists() *postingLists { return &postingLists{} }

func (p *postingLists) add(id int64, tris []Trigram) {
	for _, t := range tris {
		page := p.slot[t>>12]
		if page == nil {
			page = new([1 << 12]int32)
			p.slot[t>>12] = page
		}
		i := page[t&(1<<12-1)]
		if i == 0 {
			p.lists = append(p.lists, postingList{tri: t})
			i = int32(len(p.lists))
			page[t&(1<<12-1)] = i
		}
		l := &p.lists[i-1]
		n := len(l.buf)
		l.buf = appendPosting(l.buf, l.last, id)
		p.bytes += len(l.buf) - n
		l.last = id
	}
}

// sorted returns the lists in trigram order.
func (p *postingLists) sorted() []postingList {
	slices.SortFunc(p.lists, func(a, b postingList) int { return cmp.Compare(a.tri, b.tri) })
	return p.lists
}

// indexFiles reads paths[i] (id firstID+i) on o.Workers goroutines and
// hands each result to sink in id order.
func indexFiles(ctx context.Context, o *Options, paths []string, firstID int64, sink func(*indexedFile) error) error {
	workers := o.workers()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan *indexedFile, workers*4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			set, r := newTrigramSet(), &fileReader{}
			for i := range jobs {
				f := readOne(o, paths[i], r, set)
				f.id = firstID + int64(i)
				select {
				case results <- f:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range paths {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	pending := map[int64]*indexedFile{}
	next := firstID
	for f := range results {
		pending[f.id] = f
		for p := pending[next]; p != nil; p = pending[next] {
			delete(pending, next)
			next++
			if err := sink(p); err != nil {
				cancel()
				for range results {
				}
				return err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}

// fileReader reads files for one build worker into one reused buffer
// (readfile_*.go).
type fileReader struct{ buf []byte }

// readOne reads and indexes one file. A file that changes while it is
// read keeps a stat that can never match, so queries search it directly.
func readOne(o *Options, rel string, r *fileReader, set *trigramSet) *indexedFile {
	st, ok, tris, indexed := r.index(o, rel, set)
	f := &indexedFile{path: rel, st: st, ok: ok, indexed: indexed}
	if indexed {
		f.tris = append([]Trigram(nil), tris...)
	}
	return f
}

// index reads rel and returns its state and, when it is indexed, its
// trigrams (valid until the set's next use). Files over wholeReadMax are
// read in chunks (readLarge) instead of whole.
func (r *fileReader) index(o *Options, rel string, set *trigramSet) (st fileState, ok bool, tris []Trigram, indexed bool) {
	st, ok, text, large := r.read(o, rel)
	if large {
		st, tris, indexed = readLarge(filepath.Join(o.Root, filepath.FromSlash(rel)), st, set)
		return st, ok, tris, indexed
	}
	if !indexable(text) {
		return st, ok, nil, false
	}
	return st, ok, set.add(text), true
}

// indexable: text was read whole (nil: not read) and is text.
func indexable(text []byte) bool { return text != nil && textual(text) }

// textual: the grep engine matches these bytes as they are. Files with a
// NUL byte (binary: grep skips or reports them) and UTF-16 files (grep
// transcodes them) are left to grep.
func textual(text []byte) bool {
	if bytes.HasPrefix(text, []byte{0xff, 0xfe}) || bytes.HasPrefix(text, []byte{0xfe, 0xff}) {
		return false
	}
	return bytes.IndexByte(text, 0) < 0
}

// Build indexes the tree anew and replaces the index, if any, in one
// rename: a failure (a full disk) leaves the old index as it was. A
// second builder of the same index waits for the first.
func Build(ctx context.Context, o Options) (*Stats, error) {
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the index directory: %w", err)
	}
	unlock, err := lockBuilder(ctx, o.lockPath())
	if err != nil {
		return nil, fmt.Errorf("lock the index: %w", err)
	}
	defer unlock()
	return build(ctx, &o)
}

// buildTempPattern names the file a build writes before renaming it over
// the index.
const buildTempPattern = "index.db.tmp*"

// removeDeadTemps removes what builds killed before their rename left in
// dir (a kill -9 skips their cleanup; a late one leaves a file as large
// as the index). Only a builder holding the exclusive lock may: no other
// build can be writing one then.
func removeDeadTemps(dir string) {
	dead, _ := filepath.Glob(filepath.Join(dir, buildTempPattern))
	for _, p := range dead {
		os.Remove(p)
	}
}

func build(ctx context.Context, o *Options) (*Stats, error) {
	// Directories first: a change during the build leaves their stat
	// different from the recorded one, so queries walk until a refresh.
	dirs, err := dirStates(ctx, o)
	if err != nil {
		return nil, err
	}
	paths, narrow, err := listFiles(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("list the files of %s: %w", o.Root, err)
	}
	if lockIsExclusive {
		removeDeadTemps(o.Dir)
	}
	tmp, err := os.CreateTemp(o.Dir, buildTempPattern)
	if err != nil {
		return nil, fmt.Errorf("create the index: %w", err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	done := false
	defer func() {
		if !done {
			os.Remove(tmpPath)
			os.Remove(tmpPath + "-journal")
		}
	}()
	db, err := openDB(tmpPath, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	for _, s := range []string{"PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", schema} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return nil, fmt.Errorf("create the index: %w", err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st := &Stats{Rebuilt: true, Denied: deniedDirs(dirs)}
	var files []fileRecord
	segs, err := insertFiles(ctx, tx, o, paths, narrow, 1, 0, st, &files)
	if err != nil {
		return nil, err
	}
	if err := writeLists(ctx, tx, files, dirs); err != nil {
		return nil, err
	}
	if err := writeMeta(ctx, tx, o, segs); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("write the index: %w", err)
	}
	if err := db.Close(); err != nil {
		return nil, fmt.Errorf("write the index: %w", err)
	}
	if err := syncFile(tmpPath); err != nil {
		return nil, fmt.Errorf("write the index: %w", err)
	}
	if err := os.Rename(tmpPath, o.dbPath()); err != nil {
		return nil, fmt.Errorf("replace the index: %w", err)
	}
	done = true
	clearDamage(o)
	syncFile(o.Dir) // the rename made durable; a failure here loses nothing but the rename
	if fi, err := os.Stat(o.dbPath()); err == nil {
		st.IndexSize = fi.Size()
	}
	return st, nil
}

// defaultFlushBytes is how many bytes of run entries (runs.go) one
// segment of a build takes at most: a tree of up to about 3 GB of text
// builds into one segment, which a query reads one row per trigram of.
// It does not bound the build's memory (the runs wait in a file).
const defaultFlushBytes = 1 << 30

// insertFiles indexes paths (ids from firstID) into segments numbered from
// seg, appends their records to files (in id order) and returns the
// number after the last segment written.
func insertFiles(ctx context.Context, tx *sql.Tx, o *Options, paths []string, narrow map[string]bool, firstID int64, seg int, st *Stats, files *[]fileRecord) (int, error) {
	store := newRunStore(o)
	defer store.close()
	found, err := buildRuns(ctx, o, paths, firstID, store)
	if err != nil {
		return seg, fmt.Errorf("index the files: %w", err)
	}
	for i, f := range found {
		if !f.ok {
			continue // vanished: the directory's stat tells queries
		}
		st.Files++
		if f.indexed {
			st.Indexed++
			st.Bytes += f.st.size
		}
		*files = append(*files, fileRecord{id: firstID + int64(i), path: paths[i], st: f.st, indexed: f.indexed, narrow: inNarrow(narrow, paths[i])})
	}
	runs := store.runs
	slices.SortFunc(runs, func(a, b *run) int { return cmp.Compare(a.base, b.base) })
	w, err := newPostingsWriter(ctx, tx)
	if err != nil {
		return seg, err
	}
	defer w.close()
	for _, rs := range segments(runs, o.flush()) {
		if err := writeSegment(ctx, w, store, rs, seg, o.workers()); err != nil {
			return seg, err
		}
		seg++
	}
	return seg, w.flush()
}

// dirStates stats the directories the walk enters.
func dirStates(ctx context.Context, o *Options) ([]dirState, error) {
	names, err := listDirs(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("list the directories of %s: %w", o.Root, err)
	}
	out := make([]dirState, 0, len(names))
	for _, n := range names {
		if d, ok := statDir(o.Root, n); ok {
			d.names = namesDigest(filepath.Join(o.Root, filepath.FromSlash(n)))
			out = append(out, d)
		}
	}
	return out, nil
}

func writeMeta(ctx context.Context, tx *sql.Tx, o *Options, segs int) error {
	return writeMetaValues(ctx, tx, map[string]string{
		"format": strconv.Itoa(FormatVersion), "root": o.Root, "walk": o.Walk.key(),
		"built": time.Now().UTC().Format(time.RFC3339), "segments": strconv.Itoa(segs), "base": strconv.Itoa(segs), "refreshes": "0",
	})
}

// syncFile flushes a file or directory to disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
