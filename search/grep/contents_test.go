//go:build linux

package grep

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
)

// resetContents empties the content cache and gives it budget for the
// test, restoring the default afterwards.
func resetContents(t *testing.T, budget int64) {
	t.Helper()
	ConfigureContentCache(-1)
	ConfigureContentCache(budget)
	t.Cleanup(func() { ConfigureContentCache(-1); ConfigureContentCache(0) })
}

// The content cache changes nothing in what a search finds: every mode,
// cold and warm, over text, binary, BOM and UTF-16 files, with and
// without the scan cache.
func TestContentCacheFindsWhatAReadFinds(t *testing.T) {
	resetContents(t, 0)
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
			o.ContentCache = true
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
	o.ContentCache = true
	for range 2 {
		if res := search(t, o); len(res.Matches) != 0 || res.TotalMatches != 1 {
			t.Fatalf("named binary file: %+v", res)
		}
	}
	if n, used := ContentCacheStats(); n == 0 || used == 0 {
		t.Fatalf("nothing cached: %d files, %d bytes", n, used)
	}
}

// A file changed in any way after it was cached is read again: same size
// with the modification time put back, and replaced by a rename.
func TestContentCacheSeesChanges(t *testing.T) {
	resetContents(t, 0)
	root := writeTree(t, map[string]string{"f.txt": "alpha\n", "g.txt": "gamma\n"})
	f := filepath.Join(root, "f.txt")
	o := DefaultOptions("beta|delta", root)
	o.ContentCache = true
	if res := search(t, o); res.TotalMatches != 0 {
		t.Fatalf("before: %+v", res)
	}
	fi, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
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

// With a budget smaller than the tree, what is cached stays within it and
// stays put across passes (a pass does not evict what the previous one
// used), and the results are still complete.
func TestContentCacheBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("f%02d.txt", i)] = fmt.Sprintf("line %02d needle\n", i)
	}
	root := writeTree(t, files)
	one := int64(len("line 10 needle\n") + len(filepath.Join(root, "f10.txt")) + contentOverhead)
	resetContents(t, 10*one)
	o := DefaultOptions("needle", root)
	o.ContentCache = true
	var firstFiles int
	var firstSet []string
	for pass := range 3 {
		hitsBefore := contents.hits
		if res := search(t, o); res.TotalMatches != 50 {
			t.Fatalf("pass %d: %d matches, want 50", pass, res.TotalMatches)
		}
		n, used := ContentCacheStats()
		if used > 10*one {
			t.Fatalf("pass %d: %d bytes cached over the budget %d", pass, used, 10*one)
		}
		set := cachedPaths()
		if pass == 0 {
			firstFiles, firstSet = n, set
		} else if !reflect.DeepEqual(set, firstSet) {
			t.Fatalf("pass %d: cached %v, after the first pass %v", pass, set, firstSet)
		} else if hits := contents.hits - hitsBefore; hits != uint64(n) {
			t.Fatalf("pass %d: %d files served from memory, want the %d cached", pass, hits, n)
		}
	}
	if firstFiles < 5 {
		t.Fatalf("only %d files cached within a budget for 10", firstFiles)
	}
	ConfigureContentCache(-1)
	if n, used := ContentCacheStats(); n != 0 || used != 0 {
		t.Fatalf("cache off: %d files, %d bytes still held", n, used)
	}
}

// cachedPaths lists the cached files' paths, sorted.
func cachedPaths() []string {
	contents.mu.Lock()
	defer contents.mu.Unlock()
	return slices.Sorted(maps.Keys(contents.files))
}

// Searches running at once share the cache while files change under them
// (run with -race).
func TestContentCacheConcurrentSearches(t *testing.T) {
	resetContents(t, 0)
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
			o.ContentCache = true
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
