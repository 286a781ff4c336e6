package glob

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gopi-agent/gopi/fscache"
)

// These tests run Find over a real directory with the real fscache.

func mkTree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestFindRealFS(t *testing.T) {
	t.Parallel()
	root := mkTree(t, "a.go", "sub/b.go", "sub/c.txt", ".hidden/d.go", "node_modules/pkg/e.go", ".git/config")
	if err := os.Symlink("sub", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tests := []struct {
		opts Options
		want []string
	}{
		{Options{Pattern: "*.go"}, []string{"a.go"}},
		{Options{Pattern: "**/*.go"}, []string{"a.go", "sub/b.go"}},
		{Options{Pattern: "**/*.go", Hidden: true}, []string{".hidden/d.go", "a.go", "sub/b.go"}},
		{Options{Pattern: "{node_modules/**,**}/*.go"}, []string{"a.go", "node_modules/pkg/e.go", "sub/b.go"}},
		{Options{Pattern: "**", FileType: Symlink}, []string{"link"}},
		{Options{Pattern: "**", FileType: Dir, Hidden: true}, []string{".hidden", "sub"}},
		{Options{Pattern: "**/config", Hidden: true}, nil},
	}
	for _, tt := range tests {
		r, err := Find(ctx, root, tt.opts)
		if err != nil {
			t.Fatalf("%+v: %v", tt.opts, err)
		}
		if got := paths(r); !slices.Equal(got, tt.want) {
			t.Errorf("%q hidden=%v: got %q, want %q", tt.opts.Pattern, tt.opts.Hidden, got, tt.want)
		}
	}
	if _, err := Find(ctx, filepath.Join(root, "nope"), Options{}); err == nil || !strings.HasPrefix(err.Error(), "Path not found") {
		t.Errorf("missing root: %v", err)
	}
	if _, err := Find(ctx, filepath.Join(root, "a.go"), Options{}); err == nil || !strings.HasPrefix(err.Error(), "Path is not a directory") {
		t.Errorf("file root: %v", err)
	}
}

func TestFindRealEmptyRecheck(t *testing.T) {
	t.Parallel()
	root := mkTree(t, "a.go")
	ctx := context.Background()
	c := fscache.New(fscache.Policy{TTL: time.Minute, EmptyRecheck: 30 * time.Millisecond, MaxEntries: 4})
	opts := Options{Pattern: "b.go", Cache: true, Scanner: c}
	if r, err := Find(ctx, root, opts); err != nil || len(r.Matches) != 0 {
		t.Fatalf("before: %v %v", r, err)
	}
	if err := os.WriteFile(filepath.Join(root, "b.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(40 * time.Millisecond)
	r, err := Find(ctx, root, opts)
	if err != nil || !slices.Equal(paths(r), []string{"b.go"}) || r.CacheAge != 0 {
		t.Fatalf("after recheck: %v %v", r, err)
	}

	// With a long recheck threshold the cached negative stands.
	c = fscache.New(fscache.Policy{TTL: time.Minute, EmptyRecheck: time.Hour, MaxEntries: 4})
	opts.Scanner, opts.Pattern = c, "c.go"
	if _, err := Find(ctx, root, opts); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "c.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	if r, err := Find(ctx, root, opts); err != nil || len(r.Matches) != 0 {
		t.Fatalf("young cache: %v %v", r, err)
	}
	// Without the cache the new file is always seen.
	opts.Cache = false
	if r, err := Find(ctx, root, opts); err != nil || len(r.Matches) != 1 {
		t.Fatalf("no cache: %v %v", r, err)
	}
}

// An uncached Find sorted by modification time (gopi find --newest) holds
// its matches while the walk goes on, not a scan of every entry of the
// tree: over / that was every path of the disk, to sort a few.
func TestFindNewestHoldsMatchesNotTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40,000 files")
	}
	const dirs, perDir = 400, 100
	root := t.TempDir()
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range perDir {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.txt", f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	last := filepath.Join(root, "zz", "last.go") // the only match, last in walk order
	if err := os.MkdirAll(filepath.Dir(last), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(last, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var grown uint64
	res, err := Find(context.Background(), root, Options{Pattern: "**/*.go", SortByMtime: true, OnMatch: func(Match) {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		grown = ms.HeapAlloc - min(base, ms.HeapAlloc)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "zz/last.go" {
		t.Fatalf("matches %+v, want zz/last.go", res.Matches)
	}
	entries := uint64(dirs * perDir)
	if per := uint64(unsafe.Sizeof(fscache.Entry{})); grown > entries*per/4 {
		t.Fatalf("heap grew by %d KiB during the walk of %d entries (their entries alone: %d KiB)", grown>>10, entries, entries*per>>10)
	}
}
