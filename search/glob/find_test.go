package glob

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

// fakeScanner serves a fixed entry list and applies the traversal policy
// the way fscache does (dot-entries and node_modules pruning), recording
// every call so tests can check the cache contract.
type fakeScanner struct {
	mu      sync.Mutex
	entries []fscache.Entry // the "filesystem"; replace to simulate changes
	cached  []fscache.Entry // what GetOrScan returns (nil = scan now)
	age     time.Duration   // age reported for cached scans
	policy  fscache.Policy
	calls   []string
	opts    []fscache.Options
}

func (f *fakeScanner) walk(o fscache.Options) []fscache.Entry {
	var out []fscache.Entry
	for _, e := range f.entries {
		parts := strings.Split(e.Path, "/")
		keep := true
		for _, p := range parts {
			if (!o.Hidden && strings.HasPrefix(p, ".")) || (o.SkipNodeModules && p == "node_modules") {
				keep = false
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

func (f *fakeScanner) GetOrScan(ctx context.Context, root string, o fscache.Options) (*fscache.Scan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "get")
	f.opts = append(f.opts, o)
	if f.cached == nil {
		f.cached = f.walk(o)
		return &fscache.Scan{Root: root, Entries: f.cached}, nil
	}
	return &fscache.Scan{Root: root, Entries: f.cached, Age: f.age}, nil
}

func (f *fakeScanner) ForceRescan(ctx context.Context, root string, o fscache.Options, store bool) (*fscache.Scan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf("rescan(store=%v)", store))
	f.opts = append(f.opts, o)
	es := f.walk(o)
	if store {
		f.cached = es
	}
	return &fscache.Scan{Root: root, Entries: es}, nil
}

// ShouldRecheckEmpty applies the cache's rule with the fake's policy.
func (f *fakeScanner) ShouldRecheckEmpty(s *fscache.Scan) bool {
	return s.Age > 0 && s.Age >= f.policy.EmptyRecheck
}

func file(p string, mtime int64) fscache.Entry {
	return fscache.Entry{Path: p, Type: fscache.TypeFile, MTime: mtime}
}

func dir(p string) fscache.Entry { return fscache.Entry{Path: p, Type: fscache.TypeDir} }

// tree is a small repository in scan order (depth-first, siblings sorted).
func tree() []fscache.Entry {
	return []fscache.Entry{
		file(".env", 9),
		dir(".github"),
		file(".github/ci.yml", 8),
		file("README.md", 1),
		dir("cmd"),
		file("cmd/main.go", 7),
		{Path: "link.go", Type: fscache.TypeSymlink, MTime: 3},
		file("main.go", 5),
		file("main_test.go", 5),
		dir("node_modules"),
		dir("node_modules/lib"),
		file("node_modules/lib/index.js", 2),
		dir("src"),
		file("src/a.ts", 4),
		dir("src/b"),
		file("src/b/c.ts", 6),
		file("src/b/d.js", 2),
	}
}

// resolveRoot serves made-up roots: "missing" is not found, any other
// is under /abs.
func (f *fakeScanner) resolveRoot(p string) (string, error) {
	if p == "missing" {
		return "", errors.New("Path not found: missing")
	}
	return "/abs/" + p, nil
}

func paths(r *Result) []string {
	var out []string
	for _, m := range r.Matches {
		out = append(out, m.Path)
	}
	return out
}

func TestFindPatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"direct children only", Options{Pattern: "*.go"}, []string{"link.go", "main.go", "main_test.go"}},
		{"recursive", Options{Pattern: "**/*.go"}, []string{"cmd/main.go", "link.go", "main.go", "main_test.go"}},
		{"files only", Options{Pattern: "**/*.go", FileType: File}, []string{"cmd/main.go", "main.go", "main_test.go"}},
		{"symlinks only", Options{Pattern: "**", FileType: Symlink}, []string{"link.go"}},
		{"dirs only", Options{Pattern: "", FileType: Dir}, []string{"cmd", "src", "src/b"}},
		{"braces with slashes", Options{Pattern: "{cmd/*,src/b/*.ts}"}, []string{"cmd/main.go", "src/b/c.ts"}},
		{"class and ?", Options{Pattern: "src/?/[cd].*"}, []string{"src/b/c.ts", "src/b/d.js"}},
		{"escape", Options{Pattern: `main\_test.go`}, []string{"main_test.go"}},
		{"node_modules pruned", Options{Pattern: "**/*.js"}, []string{"src/b/d.js"}},
		{"node_modules named", Options{Pattern: "{node_modules/**/*.js,**/*.js}"}, []string{"node_modules/lib/index.js", "src/b/d.js"}},
		{"node_modules walked", Options{Pattern: "**/*.js", NodeModules: true}, []string{"node_modules/lib/index.js", "src/b/d.js"}},
		{"hidden excluded", Options{Pattern: "**/*.yml"}, nil},
		{"hidden included", Options{Pattern: "**/*.yml", Hidden: true}, []string{".github/ci.yml"}},
		{"max results", Options{Pattern: "**/*.go", MaxResults: 2}, []string{"cmd/main.go", "link.go"}},
		{"mtime sort", Options{Pattern: "**", FileType: File, SortByMtime: true, MaxResults: 4}, []string{"cmd/main.go", "src/b/c.ts", "main.go", "main_test.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := &fakeScanner{entries: tree()}
			tt.opts.Scanner = fs
			var seen []string
			tt.opts.OnMatch = func(m Match) { seen = append(seen, m.Path) }
			r, err := Find(context.Background(), "repo", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(r); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if r.Root != "/abs/repo" {
				t.Errorf("Root = %q", r.Root)
			}
			if !tt.opts.SortByMtime && !slices.Equal(seen, paths(r)) {
				t.Errorf("OnMatch saw %q", seen)
			}
			wantSkip := !tt.opts.NodeModules && !strings.Contains(tt.opts.Pattern, "node_modules")
			if o := fs.opts[0]; o.SkipNodeModules != wantSkip || o.Hidden != tt.opts.Hidden {
				t.Errorf("scan options %+v", o)
			}
		})
	}
}

func TestFindLimitReached(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		max  int
		sort bool
		want bool
	}{{3, false, true}, {4, false, false}, {5, false, false}, {3, true, true}, {4, true, false}, {0, false, false}} {
		fs := &fakeScanner{entries: tree()}
		r, err := Find(context.Background(), "repo", Options{Pattern: "**/*.go", MaxResults: tc.max, SortByMtime: tc.sort, Scanner: fs})
		if err != nil {
			t.Fatal(err)
		}
		if r.LimitReached != tc.want {
			t.Errorf("max=%d sort=%v: LimitReached=%v", tc.max, tc.sort, r.LimitReached)
		}
	}
}

func TestFindCacheContract(t *testing.T) {
	t.Parallel()
	policy := fscache.Policy{TTL: time.Second, EmptyRecheck: 200 * time.Millisecond, MaxEntries: 16}
	ctx := context.Background()

	t.Run("cache off never stores", func(t *testing.T) {
		fs := &fakeScanner{entries: tree(), policy: policy}
		_, err := Find(ctx, "repo", Options{Pattern: "nothing", Scanner: fs})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fs.calls, []string{"rescan(store=false)"}) {
			t.Errorf("calls %q", fs.calls)
		}
	})

	t.Run("stale empty result rechecks once", func(t *testing.T) {
		fs := &fakeScanner{entries: tree(), policy: policy, age: 300 * time.Millisecond}
		if _, err := Find(ctx, "repo", Options{Pattern: "**", Cache: true, Scanner: fs}); err != nil {
			t.Fatal(err)
		}
		fs.entries = append(fs.entries, file("new.go", 10)) // created after the scan
		r, err := Find(ctx, "repo", Options{Pattern: "new.go", Cache: true, Scanner: fs})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(paths(r), []string{"new.go"}) || r.CacheAge != 0 {
			t.Errorf("got %q age %v", paths(r), r.CacheAge)
		}
		if !slices.Equal(fs.calls, []string{"get", "get", "rescan(store=true)"}) {
			t.Errorf("calls %q", fs.calls)
		}
		// The rescan was stored: a second lookup is a plain hit.
		fs.calls = nil
		if r, _ = Find(ctx, "repo", Options{Pattern: "new.go", Cache: true, Scanner: fs}); len(r.Matches) != 1 || !slices.Equal(fs.calls, []string{"get"}) {
			t.Errorf("after store: %q calls %q", paths(r), fs.calls)
		}
	})

	t.Run("young empty result stands", func(t *testing.T) {
		fs := &fakeScanner{entries: tree(), policy: policy, age: 50 * time.Millisecond}
		fs.cached = fs.walk(fscache.Options{SkipNodeModules: true})
		r, err := Find(ctx, "repo", Options{Pattern: "nothing", Cache: true, Scanner: fs})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Matches) != 0 || r.CacheAge != 50*time.Millisecond || !slices.Equal(fs.calls, []string{"get"}) {
			t.Errorf("got %q age %v calls %q", paths(r), r.CacheAge, fs.calls)
		}
	})

	t.Run("non-empty result never rechecks", func(t *testing.T) {
		fs := &fakeScanner{entries: tree(), policy: policy, age: time.Hour}
		fs.cached = fs.walk(fscache.Options{SkipNodeModules: true})
		if _, err := Find(ctx, "repo", Options{Pattern: "*.go", Cache: true, Scanner: fs}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fs.calls, []string{"get"}) {
			t.Errorf("calls %q", fs.calls)
		}
	})
}

func TestFindErrors(t *testing.T) {
	t.Parallel()
	fs := &fakeScanner{entries: tree()}
	if _, err := Find(context.Background(), "missing", Options{Scanner: fs}); err == nil || !strings.Contains(err.Error(), "Path not found") {
		t.Errorf("missing root: %v", err)
	}
	var se *SyntaxError
	if _, err := Find(context.Background(), "repo", Options{Pattern: "a[", Scanner: fs}); !errors.As(err, &se) {
		t.Errorf("bad pattern: %v", err)
	}
}

func TestFindCancellation(t *testing.T) {
	t.Parallel()
	fs := &fakeScanner{}
	for i := range 3 * cancelEvery {
		fs.entries = append(fs.entries, file(fmt.Sprintf("f%05d.go", i), 0))
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Find(ctx, "repo", Options{Pattern: "*.go", Scanner: fs, OnMatch: func(Match) {
		if n++; n == 10 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n > cancelEvery {
		t.Errorf("filtered %d entries after cancellation", n)
	}
}
