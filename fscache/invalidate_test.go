package fscache

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestWithinComponentWise(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/x/y", "/", true},
		{"/", "/", true},
	} {
		if got := within(tc.path, tc.dir); got != tc.want {
			t.Errorf("within(%q, %q) = %v", tc.path, tc.dir, got)
		}
	}
}

// cachedRoots returns the sorted roots currently stored.
func cachedRoots(c *Cache) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for k := range c.entries {
		out = append(out, k.root)
	}
	slices.Sort(out)
	return out
}

// fill caches a scan of each directory name under base and returns the
// canonical base.
func fill(t *testing.T, c *Cache, base string, names ...string) string {
	t.Helper()
	for _, n := range names {
		must(t)(c.GetOrScan(context.Background(), filepath.Join(base, n), Options{}))
	}
	real, err := filepath.EvalSymlinks(base)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func TestInvalidate(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	writeTree(t, base, map[string]string{"a/b/c/f.txt": "", "a/bc/g.txt": "", "other/h.txt": ""})
	all := []string{"a", "a/b", "a/b/c", "a/bc", "other"}
	for _, tc := range []struct {
		name   string
		target string // relative to base; "" clears
		keep   []string
	}{
		{"file deep inside", "a/b/c/f.txt", []string{"a/bc", "other"}},
		{"sibling with a common prefix", "a/bc/g.txt", []string{"a/b", "a/b/c", "other"}},
		{"directory holding cached roots", "a", []string{"other"}},
		{"root itself", "a/b", []string{"a/bc", "other"}},
		{"unrelated", "other/h.txt", []string{"a", "a/b", "a/b/c", "a/bc"}},
		{"deleted file", "a/bc/gone.txt", []string{"a/b", "a/b/c", "other"}},
		{"deleted directory", "a/b/c/gone/deeper", []string{"a/bc", "other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, _ := testCache(Policy{TTL: time.Hour, MaxEntries: 16})
			real := fill(t, c, base, all...)
			c.Invalidate(filepath.Join(base, tc.target))
			var want []string
			for _, k := range tc.keep {
				want = append(want, filepath.Join(real, k))
			}
			slices.Sort(want)
			if got := cachedRoots(c); !slices.Equal(got, want) {
				t.Errorf("kept %q, want %q", got, want)
			}
		})
	}
	c, _, _ := testCache(Policy{TTL: time.Hour, MaxEntries: 16})
	fill(t, c, base, all...)
	c.Invalidate("")
	if len(cachedRoots(c)) != 0 {
		t.Error("Invalidate(\"\") kept entries")
	}
}

// TestInvalidateResolvesPaths covers relative paths and paths through a
// symlink whose target no longer exists (the parent is canonicalized).
func TestInvalidateResolvesPaths(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"real/dir/f.txt": "", "keep/": ""})
	link := filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(base, "real"), link); err != nil {
		t.Fatal(err)
	}
	c, _, _ := testCache(Policy{TTL: time.Hour, MaxEntries: 16})
	real := fill(t, c, base, "real/dir", "keep")

	// Deleted, named through the symlink.
	if err := os.Remove(filepath.Join(base, "real", "dir", "f.txt")); err != nil {
		t.Fatal(err)
	}
	c.Invalidate(filepath.Join(link, "dir", "f.txt"))
	if got := cachedRoots(c); !slices.Equal(got, []string{filepath.Join(real, "keep")}) {
		t.Fatalf("after deleted-through-symlink: %q", got)
	}

	// Relative to the working directory.
	fill(t, c, base, "real/dir")
	t.Chdir(filepath.Join(base, "link"))
	c.Invalidate("dir/new.txt")
	if got := cachedRoots(c); !slices.Equal(got, []string{filepath.Join(real, "keep")}) {
		t.Fatalf("after relative: %q", got)
	}
}

// Invalidation after a write, a delete and a rename (both sides) drops
// the scans of the directories involved.
func TestInvalidateAfterMutations(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"from/x.txt": "", "to/": "", "w/": "", "d/y.txt": ""})
	c := New(DefaultPolicy)
	real := fill(t, c, base, "from", "to", "w", "d")

	c.Invalidate(filepath.Join(base, "w", "new.txt"))
	if err := os.Remove(filepath.Join(base, "d", "y.txt")); err != nil {
		t.Fatal(err)
	}
	c.Invalidate(filepath.Join(base, "d", "y.txt"))
	if got := cachedRoots(c); !slices.Equal(got, []string{filepath.Join(real, "from"), filepath.Join(real, "to")}) {
		t.Fatalf("after write+delete: %q", got)
	}
	if err := os.Rename(filepath.Join(base, "from", "x.txt"), filepath.Join(base, "to", "x.txt")); err != nil {
		t.Fatal(err)
	}
	c.Invalidate(filepath.Join(base, "from", "x.txt"))
	c.Invalidate(filepath.Join(base, "to", "x.txt"))
	if got := cachedRoots(c); len(got) != 0 {
		t.Fatalf("after rename: %q", got)
	}
}
