package fuzzy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

type fakeScanner struct {
	mu      sync.Mutex
	entries []fscache.Entry
	cached  []fscache.Entry
	age     time.Duration
	calls   []string
	opts    []fscache.Options
}

func (f *fakeScanner) GetOrScan(ctx context.Context, root string, o fscache.Options) (*fscache.Scan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls, f.opts = append(f.calls, "get"), append(f.opts, o)
	if f.cached == nil {
		f.cached = f.entries
		return &fscache.Scan{Root: root, Entries: f.cached}, nil
	}
	return &fscache.Scan{Root: root, Entries: f.cached, Age: f.age}, nil
}

func (f *fakeScanner) ForceRescan(ctx context.Context, root string, o fscache.Options, store bool) (*fscache.Scan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls, f.opts = append(f.calls, fmt.Sprintf("rescan(store=%v)", store)), append(f.opts, o)
	if store {
		f.cached = f.entries
	}
	return &fscache.Scan{Root: root, Entries: f.entries}, nil
}

// ShouldRecheckEmpty applies the cache's rule with the default policy.
func (f *fakeScanner) ShouldRecheckEmpty(s *fscache.Scan) bool {
	return s.Age > 0 && s.Age >= fscache.DefaultPolicy.EmptyRecheck
}

// resolveRoot serves made-up roots: "missing" is not found, any other
// is under /abs.
func (f *fakeScanner) resolveRoot(p string) (string, error) {
	if p == "missing" {
		return "", errors.New("Path not found: missing")
	}
	return "/abs/" + p, nil
}

func entries(paths ...string) []fscache.Entry {
	var out []fscache.Entry
	for _, p := range paths {
		typ := fscache.TypeFile
		if p[len(p)-1] == '/' {
			p, typ = p[:len(p)-1], fscache.TypeDir
		}
		out = append(out, fscache.Entry{Path: p, Type: typ})
	}
	return out
}

var repo = entries("cmd/", "cmd/server/", "cmd/server/main.go", "internal/", "internal/http/",
	"internal/http/server.go", "internal/http/server_test.go", "internal/hsrv.go", "README.md")

func TestFindRanking(t *testing.T) {
	t.Parallel()
	fs := &fakeScanner{entries: repo}
	r, err := Find(context.Background(), "repo", Options{Query: "server", Scanner: fs})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.Matches {
		got = append(got, m.Path)
		if len(m.Positions) != 6 {
			t.Errorf("%s: positions %v", m.Path, m.Positions)
		}
		for i, p := range m.Positions {
			if m.Path[p] != "server"[i] {
				t.Errorf("%s: position %d is %q", m.Path, p, m.Path[p])
			}
		}
	}
	want := []string{"cmd/server", "internal/http/server.go", "internal/http/server_test.go", "cmd/server/main.go"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if r.TotalMatches != 4 || r.Root != "/abs/repo" || !r.Matches[0].IsDir || r.Matches[1].IsDir {
		t.Errorf("result %+v", r)
	}
	for i := 1; i < len(r.Matches); i++ {
		if r.Matches[i].Score > r.Matches[i-1].Score {
			t.Errorf("not sorted by score: %+v", r.Matches)
		}
	}
	if o := fs.opts[0]; !o.SkipNodeModules || o.Hidden || o.Gitignore {
		t.Errorf("scan options %+v", o)
	}
}

func TestFindEmptyQueryAndLimit(t *testing.T) {
	t.Parallel()
	r, err := Find(context.Background(), "repo", Options{MaxResults: 3, Scanner: &fakeScanner{entries: repo}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matches) != 3 || r.Matches[0].Path != "cmd" || r.Matches[2].Path != "cmd/server/main.go" || r.TotalMatches != len(repo) {
		t.Errorf("empty query: %+v", r)
	}
	r, _ = Find(context.Background(), "repo", Options{Query: "e", MaxResults: 2, Scanner: &fakeScanner{entries: repo}})
	if len(r.Matches) != 2 || r.TotalMatches != 8 {
		t.Errorf("limit: %d matches, total %d", len(r.Matches), r.TotalMatches)
	}
}

func TestFindCacheContract(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fs := &fakeScanner{entries: repo}
	if _, err := Find(ctx, "repo", Options{Query: "zzz", Scanner: fs}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fs.calls, []string{"rescan(store=false)"}) {
		t.Errorf("cache off: %q", fs.calls)
	}

	fs = &fakeScanner{entries: repo, cached: repo, age: 300 * time.Millisecond}
	fs.entries = append(slices.Clone(repo), fscache.Entry{Path: "zzz.go", Type: fscache.TypeFile})
	r, err := Find(ctx, "repo", Options{Query: "zzz", Cache: true, Scanner: fs})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matches) != 1 || !slices.Equal(fs.calls, []string{"get", "rescan(store=true)"}) {
		t.Errorf("stale negative: %+v calls %q", r.Matches, fs.calls)
	}

	// An empty query never rechecks, and neither does a young scan.
	for _, tc := range []struct {
		q   string
		age time.Duration
	}{{"", time.Hour}, {"zzz", 10 * time.Millisecond}} {
		fs = &fakeScanner{entries: repo, cached: entries("a/"), age: tc.age}
		if _, err := Find(ctx, "repo", Options{Query: tc.q, Cache: true, Scanner: fs}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fs.calls, []string{"get"}) {
			t.Errorf("query %q age %v: calls %q", tc.q, tc.age, fs.calls)
		}
	}
}

func TestFindParallelAndCancel(t *testing.T) {
	t.Parallel()
	var es []fscache.Entry
	for i := range 3 * parallelMin {
		es = append(es, fscache.Entry{Path: fmt.Sprintf("d%d/file%05d.go", i%7, i), Type: fscache.TypeFile})
	}
	r, err := Find(context.Background(), "repo", Options{Query: "f123", MaxResults: 5, Scanner: &fakeScanner{entries: es}})
	if err != nil {
		t.Fatal(err)
	}
	// Same answer as scoring serially and sorting.
	m := NewMatcher("f123")
	var sc Scratch
	type sp struct {
		s int
		p string
	}
	var all []sp
	for _, e := range es {
		if s, ok := m.Score(e.Path, &sc); ok {
			all = append(all, sp{s, e.Path})
		}
	}
	slices.SortFunc(all, func(a, b sp) int {
		if a.s != b.s {
			return b.s - a.s
		}
		if len(a.p) != len(b.p) {
			return len(a.p) - len(b.p)
		}
		return cmpString(a.p, b.p)
	})
	if r.TotalMatches != len(all) {
		t.Fatalf("total %d, want %d", r.TotalMatches, len(all))
	}
	for i, m := range r.Matches {
		if m.Path != all[i].p || m.Score != all[i].s {
			t.Errorf("#%d: %s %d, want %s %d", i, m.Path, m.Score, all[i].p, all[i].s)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Find(ctx, "repo", Options{Query: "f", Scanner: &fakeScanner{entries: es}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := Find(ctx, "missing", Options{Query: "f", Scanner: &fakeScanner{entries: es}}); err == nil {
		t.Error("missing root: no error")
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestFindRealFS(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"net/http/server.go", "node_modules/http/server.js", ".cfg/httpserver", "docs/x.md"} {
		p := root + "/" + f
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := fscache.New(fscache.Policy{TTL: time.Minute, EmptyRecheck: 30 * time.Millisecond, MaxEntries: 4})
	ctx := context.Background()
	r, err := Find(ctx, root, Options{Query: "httpserver", Cache: true, Scanner: c})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matches) != 1 || r.Matches[0].Path != "net/http/server.go" {
		t.Fatalf("got %+v", r.Matches)
	}
	r, _ = Find(ctx, root, Options{Query: "httpserver", Hidden: true, Scanner: c})
	if len(r.Matches) != 2 || r.Matches[0].Path != ".cfg/httpserver" {
		t.Fatalf("hidden: %+v", r.Matches)
	}
	if r, _ = Find(ctx, root, Options{Query: "readme", Cache: true, Scanner: c}); len(r.Matches) != 0 {
		t.Fatalf("readme before: %+v", r.Matches)
	}
	if err := os.WriteFile(root+"/README.md", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(40 * time.Millisecond)
	if r, _ = Find(ctx, root, Options{Query: "readme", Cache: true, Scanner: c}); len(r.Matches) != 1 {
		t.Fatalf("readme after recheck: %+v", r.Matches)
	}
	if _, err := Find(ctx, root+"/nope", Options{Query: "x"}); err == nil || !strings.HasPrefix(err.Error(), "Path not found") {
		t.Errorf("missing root: %v", err)
	}
}
