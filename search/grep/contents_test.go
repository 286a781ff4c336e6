//go:build linux

package grep

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/native/rure"
)

// nextTick waits long enough for file times to differ from the last ones
// (Linux file times come from a clock that ticks every few milliseconds).
func nextTick() { time.Sleep(20 * time.Millisecond) }

// bothValidations runs fn with the cache trusting watched directories and
// with it checking every file with a stat (inotify unavailable).
func bothValidations(t *testing.T, fn func(t *testing.T, watch bool)) {
	t.Parallel()
	for _, watch := range []bool{true, false} {
		t.Run(map[bool]string{true: "watched", false: "stat"}[watch], func(t *testing.T) {
			t.Parallel()
			fn(t, watch)
		})
	}
}

// The content cache changes nothing in what a search finds: every mode,
// cold and warm, over text, binary, BOM and UTF-16 files, with and
// without the scan cache.
func TestContentCacheFindsWhatAReadFinds(t *testing.T) { bothValidations(t, testContentCacheFinds) }

func testContentCacheFinds(t *testing.T, watch bool) {
	contents := newContents(t, 0, watch)
	root := writeTree(t, map[string]string{
		"a.txt":     "foo\nbar foo\n",
		"b/c.go":    "package foo\n// nothing\nfunc foo() {}\n",
		"bin.dat":   "foo\x00bar\n",
		"bom.txt":   "\xef\xbb\xbffoo first\n",
		"u16.txt":   "\xff\xfef\x00o\x00o\x00\n\x00",
		"empty.txt": "",
	})
	for _, mode := range []Mode{ModeContent, ModeCount, ModeFilesWithMatches} {
		for _, scan := range []bool{false, true} {
			o := DefaultOptions("^foo|foo$", root)
			o.Mode, o.Cache = mode, scan
			want := search(t, o)
			o.ContentCache = contents
			for pass := range 3 {
				got := search(t, o)
				got.CacheAge, want.CacheAge = 0, 0
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("mode %d scan cache %v pass %d:\ngot  %+v\nwant %+v", mode, scan, pass, got, want)
				}
			}
		}
	}
	// A binary file named as the path is still searched (its text is not
	// cached, only the verdict of a directory search).
	o := DefaultOptions("foo", filepath.Join(root, "bin.dat"))
	o.ContentCache = contents
	for range 2 {
		if res := search(t, o); len(res.Matches) != 0 || res.TotalMatches != 1 {
			t.Fatalf("named binary file: %+v", res)
		}
	}
	if n, used := contents.Stats(); n == 0 || used == 0 {
		t.Fatalf("nothing cached: %d files, %d bytes", n, used)
	}
}

// A file changed in any way after it was cached is read again: same size
// with the modification time put back, and replaced by a rename.
func TestContentCacheSeesChanges(t *testing.T) { bothValidations(t, testContentCacheSeesChanges) }

func testContentCacheSeesChanges(t *testing.T, watch bool) {
	contents := newContents(t, 0, watch)
	root := writeTree(t, map[string]string{"f.txt": "alpha\n", "g.txt": "gamma\n"})
	f := filepath.Join(root, "f.txt")
	o := DefaultOptions("beta|delta", root)
	o.ContentCache = contents
	if res := search(t, o); res.TotalMatches != 0 {
		t.Fatalf("before: %+v", res)
	}
	fi, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	nextTick()
	if err := os.WriteFile(f, []byte("beta!\n"), 0o644); err != nil { // same size
		t.Fatal(err)
	}
	if err := os.Chtimes(f, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if res := search(t, o); res.TotalMatches != 1 {
		t.Fatalf("same size, same mtime, new text: %d matches, want 1", res.TotalMatches)
	}
	tmp := filepath.Join(root, "new")
	if err := os.WriteFile(tmp, []byte("delta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "g.txt")); err != nil {
		t.Fatal(err)
	}
	if res := search(t, o); res.TotalMatches != 2 {
		t.Fatalf("after a rename over g.txt: %d matches, want 2", res.TotalMatches)
	}
}

// sizedTree writes n files of one line each (f000.txt, f001.txt, …) and
// returns the tree's root and what one of its files costs in the content
// cache (all cost the same).
func sizedTree(t *testing.T, n int) (root string, one int64) {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("f%03d.txt", i)] = fmt.Sprintf("line %03d needle\n", i)
	}
	root = writeTree(t, files)
	return root, contentCost(filepath.Join(root, "f000.txt"), []byte("line 000 needle\n"))
}

// A tree larger than the budget (a search of /): a search of it never
// fills the cache, only the eighth of the budget a tree not measured yet
// may take, and the next searches add nothing (the tree is known not to
// fit), keep what is cached and serve it from memory; results stay
// complete.
func TestContentCacheTreeLargerThanBudget(t *testing.T) {
	t.Parallel()
	root, one := sizedTree(t, 200)
	budget := 40 * one // the tree is five times the budget
	contents := newContents(t, budget, true)
	o := DefaultOptions("needle", root)
	o.ContentCache = contents
	var firstSet []string
	for pass := range 3 {
		hitsBefore := contents.hits
		if res := search(t, o); res.TotalMatches != 200 {
			t.Fatalf("pass %d: %d matches, want 200", pass, res.TotalMatches)
		}
		n, used := contents.Stats()
		if used > budget/contentProbationShare {
			t.Fatalf("pass %d: %d files, %d bytes cached; a tree larger than the budget %d may take %d", pass, n, used, budget, budget/contentProbationShare)
		}
		set := cachedPaths(contents)
		if pass == 0 {
			if n == 0 {
				t.Fatal("the first search cached nothing")
			}
			firstSet = set
		} else if !reflect.DeepEqual(set, firstSet) {
			t.Fatalf("pass %d: cached %v, after the first pass %v", pass, set, firstSet)
		} else if hits := contents.hits - hitsBefore; hits != uint64(n) {
			t.Fatalf("pass %d: %d files served from memory, want the %d cached", pass, hits, n)
		}
	}
	contents.SetBudget(-1)
	if n, used := contents.Stats(); n != 0 || used != 0 {
		t.Fatalf("cache off: %d files, %d bytes still held", n, used)
	}
}

// A tree that fits the budget but is larger than what an unmeasured tree
// may take: the first search caches part of it and measures it, the
// second caches the rest, the third reads nothing from disk.
func TestContentCacheTreeThatFits(t *testing.T) {
	t.Parallel()
	root, one := sizedTree(t, 30)
	contents := newContents(t, 40*one, true)
	o := DefaultOptions("needle", root)
	o.ContentCache = contents
	if search(t, o).TotalMatches != 30 {
		t.Fatal("first search: matches missing")
	}
	if n, _ := contents.Stats(); n == 0 || n > 40/contentProbationShare {
		t.Fatalf("first search cached %d files, want 1 to %d", n, 40/contentProbationShare)
	}
	search(t, o)
	if n, _ := contents.Stats(); n != 30 {
		t.Fatalf("second search: %d files cached, want all 30", n)
	}
	before := contents.hits
	search(t, o)
	if hits := contents.hits - before; hits != 30 {
		t.Fatalf("third search: %d of 30 files served from memory", hits)
	}
}

// What a search of a small part of a tree measured (a narrow glob) does
// not let a search of the whole tree fill the cache: each choice of files
// is measured on its own.
func TestContentCacheScopeIsTheFileSelection(t *testing.T) {
	t.Parallel()
	root, one := sizedTree(t, 200)
	budget := 40 * one
	contents := newContents(t, budget, true)
	o := DefaultOptions("needle", root)
	o.ContentCache = contents
	narrow := o
	narrow.Glob = "f00*.txt" // 10 files
	for range 2 {
		if n := search(t, narrow).TotalMatches; n != 10 {
			t.Fatalf("narrow search: %d matches, want 10", n)
		}
	}
	for pass := range 2 {
		search(t, o)
		if _, used := contents.Stats(); used > 10*one+budget/contentProbationShare {
			t.Fatalf("whole tree, pass %d: %d bytes cached, want at most the narrow part and an unmeasured tree's share (%d)", pass, used, 10*one+budget/contentProbationShare)
		}
	}
}

// A file larger than a whole read (wholeFileLimit) is read whole only to
// be cached; one the search would not admit is read in blocks, so a
// search of a tree that does not fit does not allocate a file-sized
// buffer per large file.
func TestContentCacheLargeFileNotAdmittedIsReadInBlocks(t *testing.T) {
	// Not parallel: it measures the process's allocations.
	if !rure.Available {
		t.Skip("Go's regexp engine (no cgo) allocates per line searched: the bound is for the read buffers")
	}
	const size = 1 << 20
	text := strings.Repeat("abcdefghijklmno\n", size/16)
	root := writeTree(t, map[string]string{"a.txt": text, "b.txt": text, "c.txt": text, "d.txt": text})
	contents := newContents(t, 256<<10, true) // room for none of them
	o := withBlocks(DefaultOptions("zzz|abc", root), 64<<10, 16<<10)
	o.ContentCache, o.Mode = contents, ModeCount
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := search(t, o)
	runtime.ReadMemStats(&after)
	if res.TotalMatches != 4*size/16 {
		t.Fatalf("%d matching lines, want %d", res.TotalMatches, 4*size/16)
	}
	if n, _ := contents.Stats(); n != 0 {
		t.Fatalf("%d files cached over the budget", n)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= size {
		t.Fatalf("allocated %d KiB to search four files of %d KiB in blocks of %d KiB", alloc>>10, size>>10, o.tuning.blockSize>>10)
	}
}

// A worker that read a large file whole to cache it does not keep a
// buffer that size for the rest of the search.
func TestContentCacheWorkerDropsLargeReadBuffer(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, true)
	const size = keptBufferLimit + 1<<20
	root := writeTree(t, map[string]string{"big.txt": strings.Repeat("abcdefghijklmno\n", size/16)})
	path := filepath.Join(root, "big.txt")
	o := DefaultOptions("abc", path)
	o.ContentCache, o.Mode = contents, ModeCount
	m, err := compileMatcher(matcherConfig{pattern: o.Pattern})
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	gen, scope := contents.begin(contentScopeKey(&o))
	o.tuning = o.tuning.resolved()
	w := worker{m: m, opts: &o, cacheGen: gen, scope: scope}
	out := w.search(context.Background(), candidate{display: path, abs: path, size: -1}, false, func(*FileResult) bool { return true })
	contents.end(scope, true)
	if out.skipped != nil {
		t.Fatal(out.skipped)
	}
	if !contents.holds(path) {
		t.Fatal("the file was not cached: the test needs it read whole")
	}
	if c := cap(w.buf); c > keptBufferLimit {
		t.Fatalf("the worker kept a read buffer of %d MiB after a %d MiB file", c>>20, size>>20)
	}
}

// Once a search has gone through more than the whole budget it admits
// nothing more, so the files it has not cached are searched as without
// the cache: no directory watch (a search of / would otherwise take the
// 8192 it may hold) and no stat.
func TestContentCachePastBudgetWatchesNoMore(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("d%02d/f.txt", i)] = "line needle\n"
	}
	root := writeTree(t, files)
	one := contentCost(filepath.Join(root, "d00", "f.txt"), []byte("line needle\n"))
	contents := newContents(t, 8*one, true)
	o := DefaultOptions("needle", root)
	o.ContentCache = contents
	if n := search(t, o).TotalMatches; n != 60 {
		t.Fatalf("%d matches, want 60", n)
	}
	if contents.watch == nil {
		t.Skip("inotify unavailable here")
	}
	contents.mu.Lock()
	watched := len(contents.dirs)
	contents.mu.Unlock()
	// Up to 8 files' worth, and those the two workers had in hand.
	if watched > 16 {
		t.Fatalf("%d of 60 directories watched by a search past a budget of 8 files", watched)
	}
}

// cachedPaths lists the paths of the files c holds, sorted.
func cachedPaths(c *ContentCache) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.files))
}

// Searches running at once share the cache while files change under them
// (run with -race).
func TestContentCacheConcurrentSearches(t *testing.T) {
	bothValidations(t, testContentCacheConcurrent)
}

func testContentCacheConcurrent(t *testing.T, watch bool) {
	contents := newContents(t, 0, watch)
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("d%d/f%d.txt", i%4, i)] = "needle\n"
	}
	root := writeTree(t, files)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			o := DefaultOptions("needle", root)
			o.ContentCache = contents
			o.Cache = g%2 == 0
			for range 20 {
				res, err := Search(ctx, o)
				if err != nil {
					t.Error(err)
					return
				}
				if res.TotalMatches < 39 { // one file may be mid-rewrite
					t.Errorf("%d matches", res.TotalMatches)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range 20 {
			p := filepath.Join(root, "d1", "f1.txt")
			if err := os.WriteFile(p, []byte(fmt.Sprintf("needle %d\n", i)), 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
}

// With inotify, a repeated search serves unchanged files without a stat,
// and still sees every way a file can change under the same path: written
// in place, through a hard link in another directory, and a directory
// above it renamed away and rebuilt (its watch hears nothing of that).
func TestContentCacheWatchedChanges(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, true)
	root := writeTree(t, map[string]string{"a/b/f.txt": "one\n", "a/b/g.txt": "two\n", "h/x.txt": "xxx\n"})
	o := DefaultOptions("one|two", root)
	o.ContentCache = contents
	count := func() int { return search(t, o).TotalMatches }
	if n := count(); n != 2 {
		t.Fatalf("first search: %d matches", n)
	}
	before := contents.trusted
	if n := count(); n != 2 {
		t.Fatalf("second search: %d matches", n)
	}
	if contents.watch == nil {
		t.Skip("inotify unavailable here: nothing watched")
	}
	if got := contents.trusted - before; got != 3 {
		t.Fatalf("%d files served without a stat on the second search, want 3", got)
	}

	// A hard link from elsewhere: the file is checked with a stat.
	if err := os.Link(filepath.Join(root, "a/b/g.txt"), filepath.Join(root, "h/link.txt")); err != nil {
		t.Fatal(err)
	}
	count()
	nextTick()
	if err := os.WriteFile(filepath.Join(root, "h/link.txt"), []byte("six\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Pattern = "six"
	if n := count(); n != 2 { // g.txt and link.txt
		t.Fatalf("after a write through a hard link: %d matches of six, want 2", n)
	}

	// The grandparent renamed away and the same paths built again with
	// files of the same size and times.
	fi, _ := os.Stat(filepath.Join(root, "a/b/f.txt"))
	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "old")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"f.txt", "g.txt"} {
		p := filepath.Join(root, "a/b", name)
		if err := os.WriteFile(p, []byte("ten\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
	}
	o.Path, o.Pattern = filepath.Join(root, "a"), "ten"
	if n := count(); n != 2 {
		t.Fatalf("after the tree was rebuilt: %d matches of ten, want 2", n)
	}
}

// A lost event queue (overflow) drops every watch: nothing stale is
// served, and watching starts again.
func TestContentCacheWatchOverflow(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, true)
	root := writeTree(t, map[string]string{"a.txt": "aaa\n", "b.txt": "bbb\n"})
	o := DefaultOptions("zzz", root)
	o.ContentCache = contents
	search(t, o)
	if contents.watch == nil {
		t.Skip("inotify unavailable here")
	}
	data, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	limit := 16384
	if err == nil {
		fmt.Sscan(string(data), &limit)
	}
	if limit > 1<<17 {
		t.Skipf("max_queued_events %d: too many writes to overflow it here", limit)
	}
	fa, err := os.OpenFile(filepath.Join(root, "a.txt"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	fb, err := os.OpenFile(filepath.Join(root, "b.txt"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fb.Close()
	// Alternating names so the kernel cannot merge the events.
	for i := 0; i <= limit; i++ {
		f := fa
		if i%2 == 1 {
			f = fb
		}
		if _, err := f.WriteAt([]byte("zzz"), 0); err != nil {
			t.Fatal(err)
		}
	}
	lost := contents.watchLost
	if n := search(t, o).TotalMatches; n != 2 {
		t.Fatalf("after an overflow: %d matches, want 2", n)
	}
	if contents.watchLost == lost {
		t.Fatal("the overflow was not noticed")
	}
	if len(contents.dirs) == 0 {
		t.Fatal("watching did not start again")
	}
}

// A file changed within racyWindow is not cached: a second write in the
// same tick of the file system's clock would leave its size and times as
// they were.
func TestContentCacheSkipsRacyFiles(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, false)
	contents.now = time.Now
	root := writeTree(t, map[string]string{"f.txt": "one\n"})
	o := DefaultOptions("one", root)
	o.ContentCache = contents
	search(t, o)
	if n, _ := contents.Stats(); n != 0 {
		t.Fatalf("a file written just now was cached (%d files)", n)
	}
	// The same-size rewrite in the same tick that stat could not see.
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Pattern = "two"
	if n := search(t, o).TotalMatches; n != 1 {
		t.Fatalf("rewritten file: %d matches, want 1", n)
	}
}

// One directory reached under two paths (-L through a link) has one watch:
// a change is reported under one path only, so the other path's files are
// checked with a stat.
func TestContentCacheDirectoryUnderTwoPaths(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, true)
	root := writeTree(t, map[string]string{"real/f.txt": "one\n"})
	if err := os.Symlink("real", filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions("one", root)
	o.ContentCache, o.Follow = contents, true
	if n := search(t, o).TotalMatches; n != 2 {
		t.Fatalf("%d matches, want 2 (real/f.txt and alias/f.txt)", n)
	}
	search(t, o)
	nextTick()
	if err := os.WriteFile(filepath.Join(root, "real/f.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Pattern = "two"
	if n := search(t, o).TotalMatches; n != 2 {
		t.Fatalf("after a change: %d matches, want 2", n)
	}
}

// A search reads a file; the file is written and another search begins
// (draining the write's event while the file is not cached yet); only then
// does the first search store the text it read. That text must not be
// trusted without a stat, or it would be served until the next change.
func TestContentCacheWriteBetweenReadAndStore(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, true)
	dir := writeTree(t, map[string]string{"x.txt": "OLD line\n"})
	other := writeTree(t, map[string]string{"y.txt": "other line\n"})
	texts := func(path string) string {
		o := DefaultOptions("line", path)
		o.ContentCache = contents
		var b strings.Builder
		for _, m := range search(t, o).Matches {
			b.WriteString(m.Text + ";")
		}
		return b.String()
	}
	var fired atomic.Bool
	contents.now = func() time.Time {
		if fired.CompareAndSwap(false, true) {
			// Called by the first search's store of x.txt, after its read.
			nextTick()
			f, err := os.OpenFile(filepath.Join(dir, "x.txt"), os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return time.Now().Add(time.Hour)
			}
			f.WriteAt([]byte("NEW"), 0)
			f.Close()
			texts(other) // another search starts and drains the event
		}
		return time.Now().Add(time.Hour)
	}
	texts(dir)
	if contents.watch == nil {
		t.Skip("inotify unavailable here")
	}
	for range 2 {
		if got := texts(dir); got != "NEW line;" {
			t.Fatalf("search after the write: %q, want the new text", got)
		}
	}
}

// Two caches are independent: what one search keeps in its cache is not
// in another, and turning one off leaves the other as it was.
func TestContentCachesAreIndependent(t *testing.T) {
	t.Parallel()
	contents := newContents(t, 0, true)
	root := writeTree(t, map[string]string{"a.txt": "foo\n", "b.txt": "bar foo\n"})
	other := newContents(t, 0, true)
	o := DefaultOptions("foo", root)
	o.ContentCache = contents
	for range 2 {
		if res := search(t, o); res.TotalMatches != 2 {
			t.Fatalf("%+v", res)
		}
	}
	if n, _ := contents.Stats(); n != 2 {
		t.Fatalf("the searched cache holds %d files, want 2", n)
	}
	if n, _ := other.Stats(); n != 0 {
		t.Fatalf("the other cache holds %d files", n)
	}
	o.ContentCache = other
	search(t, o)
	contents.SetBudget(-1)
	if n, _ := other.Stats(); n == 0 {
		t.Fatal("turning one cache off emptied the other")
	}
	if NewContentCache(-1) != nil {
		t.Fatal("a negative budget must give no cache")
	}
}
