package ast

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// cachedTree makes a parse cache and a scan cache for the test and writes
// a.go and b.go (each with one call of g) plus extra files into a new
// tree.
func cachedTree(t *testing.T, extra map[string]string) (string, Scope) {
	t.Helper()
	requireNative(t)
	pc := NewParseCache(64 << 20)
	t.Cleanup(pc.Close)
	files := map[string]string{
		"a.go": "package a\n\nfunc f() { g(1) }\n",
		"b.go": "package a\n\nfunc h() { g(2) }\n",
	}
	maps.Copy(files, extra)
	dir := tree(t, files)
	return dir, Scope{Paths: []string{dir}, ScanCache: fscache.New(fscache.DefaultPolicy), ParseCache: pc}
}

// The parse cache answers a repeated search without parsing again, keeps
// results identical, and never serves a stale tree: not after a write
// reported to the cache, and not after a same-size
// rewrite that keeps the modification time (the content hash catches it).
func TestParseCacheReuseAndStaleness(t *testing.T) {
	t.Parallel()
	dir, sc := cachedTree(t, map[string]string{
		"c.go": "package a\n\nfunc k() {}\n", // ruled out by the literal filter
	})
	pc := sc.ParseCache
	req := SearchRequest{Scope: sc, Patterns: []string{"g($A)"}}
	first := search(t, req)
	before := pc.Stats()
	second := search(t, req)
	after := pc.Stats()
	if locations(first.Matches) != locations(second.Matches) || first.TotalMatches != 2 {
		t.Fatalf("first %q, second %q", locations(first.Matches), locations(second.Matches))
	}
	if hits := after.Hits - before.Hits; hits != 3 {
		t.Fatalf("second search: %d cache hits, want 3 (two trees, one filter record); stats %+v", hits, after)
	}
	if second.Matches[0].Text != "g(1)" {
		t.Fatalf("first match %q", second.Matches[0].Text)
	}

	// A write reported by a tool. Its modification time is put in the
	// future, which the cache never trusts alone (however slow the
	// machine, the entry stored next keeps a content hash).
	a := filepath.Join(dir, "a.go")
	if err := os.WriteFile(a, []byte("package a\n\nfunc f() { g(1); g(3) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(a, future, future); err != nil {
		t.Fatal(err)
	}
	pc.Invalidate(a)
	if got := search(t, req).TotalMatches; got != 3 {
		t.Fatalf("after a reported write: %d matches, want 3", got)
	}

	// A same-size rewrite with the same modification time, not reported:
	// the content is checked against the hash.
	newer := strings.Replace("package a\n\nfunc f() { g(1); g(3) }\n", "g(3)", "x(3)", 1)
	if err := os.WriteFile(a, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, future, future); err != nil {
		t.Fatal(err)
	}
	if got := search(t, req).TotalMatches; got != 2 {
		t.Fatalf("after a same-size rewrite keeping mtime: %d matches, want 2", got)
	}

	// Deleting a directory's files drops their entries.
	pc.Invalidate(dir)
	if s := pc.Stats(); s.Entries != 0 {
		t.Fatalf("after invalidating the directory: %d entries left", s.Entries)
	}
}

// Searches through the parse cache (filled, then reused by other
// patterns) find exactly what uncached searches find.
func TestParseCacheSameMatchesAsUncached(t *testing.T) {
	t.Parallel()
	requireNative(t)
	pc := NewParseCache(64 << 20)
	t.Cleanup(pc.Close)
	sc := Scope{Paths: []string{"../core/tools", "."}}
	for round := range 2 {
		for _, pat := range []string{"$A.Lock()", "if err != nil { return $$$ }", "fmt.Errorf($$$A)", "errors.Is($E, $T)"} {
			req := SearchRequest{Scope: sc, Patterns: []string{pat}, Captures: true}
			plain := search(t, req)
			req.ParseCache = pc
			cached := search(t, req)
			if plain.TotalMatches == 0 || cached.TotalMatches != plain.TotalMatches || locations(cached.Matches) != locations(plain.Matches) {
				t.Fatalf("round %d, %s: cached %d matches, uncached %d", round, pat, cached.TotalMatches, plain.TotalMatches)
			}
			for i := range plain.Matches {
				p, c := plain.Matches[i], cached.Matches[i]
				if p.Text != c.Text || p.Lines != c.Lines || p.End != c.End || len(p.Captures) != len(c.Captures) {
					t.Fatalf("round %d, %s: match %d differs: %+v vs %+v", round, pat, i, p, c)
				}
			}
		}
	}
	if s := pc.Stats(); s.Hits == 0 {
		t.Fatalf("no cache hits: %+v", s)
	}
}

// A repeated search of files whose stamps can be trusted is answered from
// the results the cache kept (one hit per file, same matches and texts);
// another pattern over the same files uses the cached trees; a reported
// write drops the file's results.
func TestParseCacheKeepsResults(t *testing.T) {
	dir, sc := cachedTree(t, nil)
	pc := sc.ParseCache
	old := time.Now().Add(-time.Hour)
	setOld := func(name string) {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	setOld("a.go")
	setOld("b.go")
	req := SearchRequest{Scope: sc, Patterns: []string{"g($A)"}, Captures: true}
	first := search(t, req)
	before := pc.Stats()
	if before.Entries != 4 {
		t.Fatalf("after the first search: %d entries, want 4 (two trees, two files' results)", before.Entries)
	}
	second := search(t, req)
	if hits := pc.Stats().Hits - before.Hits; hits != 2 {
		t.Fatalf("repeat: %d cache hits, want 2", hits)
	}
	if locations(first.Matches) != locations(second.Matches) || second.TotalMatches != 2 {
		t.Fatalf("first %q, second %q", locations(first.Matches), locations(second.Matches))
	}
	for i, m := range second.Matches {
		f := first.Matches[i]
		if m.Text != f.Text || m.Lines != f.Lines || m.Captures[0].Nodes[0].Text != f.Captures[0].Nodes[0].Text {
			t.Fatalf("match %d: %+v, first time %+v", i, m, f)
		}
	}
	other := req
	other.Patterns = []string{"func $F() { $$$ }"}
	before = pc.Stats()
	if got := search(t, other).TotalMatches; got != 2 {
		t.Fatalf("other pattern: %d matches, want 2", got)
	}
	if hits := pc.Stats().Hits - before.Hits; hits != 2 {
		t.Fatalf("other pattern: %d cache hits (trees), want 2", hits)
	}

	a := filepath.Join(dir, "a.go")
	if err := os.WriteFile(a, []byte("package a\n\nfunc f() { g(1); g(3) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	setOld("a.go")
	pc.Invalidate(a)
	if got := search(t, req).TotalMatches; got != 3 {
		t.Fatalf("after a reported write: %d matches, want 3", got)
	}

	// A same-size rewrite in place that puts the old modification time
	// back (as `touch -r` or `cp -p` can), not reported: the status-change
	// time still moved, so neither results nor trees are served stale.
	b := filepath.Join(dir, "b.go")
	if err := os.WriteFile(b, []byte("package a\n\nfunc h() { x(2) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	setOld("b.go")
	if got := search(t, req).TotalMatches; got != 2 {
		t.Fatalf("after a same-size rewrite restoring the mtime: %d matches, want 2 (a.go's)", got)
	}
}

// Two parse caches are independent: a search through one leaves the
// other empty, and invalidating or closing one leaves the other as it
// was. A nil cache is off.
func TestParseCachesAreIndependent(t *testing.T) {
	t.Parallel()
	dir, sc := cachedTree(t, nil)
	other := NewParseCache(64 << 20)
	defer other.Close()
	search(t, SearchRequest{Scope: sc, Patterns: []string{"g($A)"}})
	if n := sc.ParseCache.Stats().Entries; n == 0 {
		t.Fatal("the searched cache holds nothing")
	}
	if s := other.Stats(); s.Entries != 0 || s.Hits+s.Misses != 0 {
		t.Fatalf("the other cache was used: %+v", s)
	}
	osc := sc
	osc.ParseCache = other
	search(t, SearchRequest{Scope: osc, Patterns: []string{"g($A)"}})
	sc.ParseCache.Invalidate(dir)
	sc.ParseCache.Close()
	if other.Stats().Entries == 0 {
		t.Fatal("invalidating and closing one cache emptied the other")
	}
	if got := search(t, SearchRequest{Scope: sc, Patterns: []string{"g($A)"}}).TotalMatches; got != 2 {
		t.Fatalf("through a closed cache: %d matches, want 2", got)
	}
	if NewParseCache(-1) != nil {
		t.Fatal("a negative budget must give no cache")
	}
	var none *ParseCache
	none.Invalidate(dir)
	if none.Stats() != (astgrep.CacheStats{}) {
		t.Fatal("a nil cache has counters")
	}
}
