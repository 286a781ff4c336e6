package fscache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// refWalk is the reference walk: sequential, sorted, lstat by path.
func refWalk(t testing.TB, root, rel string, out []Entry) []Entry {
	des, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return out
	}
	for _, de := range des { // os.ReadDir sorts by name
		p := de.Name()
		if rel != "" {
			p = rel + "/" + p
		}
		if de.Name() == ".git" {
			continue
		}
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		e := entryFromFileInfo(fi)
		e.Path = p
		out = append(out, e)
		if e.Type == TypeDir {
			out = refWalk(t, root, p, out)
		}
	}
	return out
}

func entryFromFileInfo(fi os.FileInfo) Entry {
	t := TypeOther
	switch m := fi.Mode(); {
	case m.IsRegular():
		t = TypeFile
	case m.IsDir():
		t = TypeDir
	case m&os.ModeSymlink != 0:
		t = TypeSymlink
	}
	return Entry{Type: t, MTime: fi.ModTime().UnixMilli(), Size: fi.Size()}
}

func walkAll(t *testing.T, root string, opts Options) []Entry {
	t.Helper()
	es, err := Walk(context.Background(), root, opts)
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return es
}

func paths(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Path
	}
	return out
}

func TestWalkOrderAndMetadata(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"b.txt": "bb", "a.txt": "a", "a/z": "zzz", "a/b/c": "", "B": "", "_u": "", "a-b": "", "a0": "",
		"empty/": "", ".h/x": "", "z/y/x/w": "deep",
	})
	old := time.Date(2001, 2, 3, 4, 5, 6, 7e6, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "a.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	got := walkAll(t, root, Options{Hidden: true})
	want := []string{".h", ".h/x", "B", "_u", "a", "a/b", "a/b/c", "a/z", "a-b", "a.txt", "a0", "b.txt", "empty", "z", "z/y", "z/y/x", "z/y/x/w"}
	if !slices.Equal(paths(got), want) {
		t.Fatalf("order:\n got %q\nwant %q", paths(got), want)
	}
	if ref := refWalk(t, root, "", nil); !slices.Equal(got, ref) {
		t.Errorf("entries differ from the reference walk:\n got %+v\nwant %+v", got, ref)
	}
	for _, e := range got {
		if e.Path == "a.txt" && (e.MTime != old.UnixMilli() || e.Size != 1 || e.Type != TypeFile) {
			t.Errorf("a.txt = %+v, want mtime %d size 1", e, old.UnixMilli())
		}
	}
}

// TestWalkGorootMatchesReference compares a large real tree, entry by entry.
func TestWalkGorootMatchesReference(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short")
	}
	root := filepath.Join(goroot(t), "src", "net")
	got := walkAll(t, root, Options{Hidden: true})
	ref := refWalk(t, root, "", nil)
	if !slices.Equal(got, ref) {
		t.Fatalf("walk of %s differs from the reference (%d vs %d entries)", root, len(got), len(ref))
	}
}

// WalkTypes must list exactly what Walk lists, with the same types, and
// leave MTime and Size at 0.
func TestWalkTypesMatchesWalk(t *testing.T) {
	t.Parallel()
	root := filepath.Join(goroot(t), "src", "net")
	for _, opts := range []Options{{Hidden: true}, {Gitignore: true, SkipNodeModules: true}} {
		full, err := Walk(context.Background(), root, opts)
		if err != nil {
			t.Fatal(err)
		}
		light, err := WalkTypes(context.Background(), root, opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range full {
			full[i].MTime, full[i].Size = 0, 0
		}
		if !slices.Equal(full, light) {
			t.Fatalf("%+v: WalkTypes differs from Walk (%d vs %d entries)", opts, len(light), len(full))
		}
	}
}

func TestWalkNeverReturnsGit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{".git/HEAD": "", ".git/objects/x": "", "sub/.git": "gitdir: x", "sub/f": "", ".github/w": ""})
	for _, opts := range []Options{{Hidden: true}, {Hidden: true, Gitignore: true}, {}} {
		for _, e := range walkAll(t, root, opts) {
			if slices.Contains(strings.Split(e.Path, "/"), ".git") {
				t.Errorf("%+v: .git returned: %s", opts, e.Path)
			}
		}
	}
	if got := paths(walkAll(t, root, Options{Hidden: true})); !slices.Equal(got, []string{".github", ".github/w", "sub", "sub/f"}) {
		t.Errorf("got %q", got)
	}
}

func TestWalkSymlinksNotFollowed(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"d/f": "x"})
	for link, target := range map[string]string{"loop": ".", "d/up": "..", "self": "self", "dangling": "nowhere", "toD": "d"} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	es, err := Walk(ctx, root, Options{Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"d", "d/f", "d/up", "dangling", "loop", "self", "toD"}
	if !slices.Equal(paths(es), want) {
		t.Fatalf("got %q, want %q", paths(es), want)
	}
	for _, e := range es {
		isLink := e.Path != "d" && e.Path != "d/f"
		if isLink != (e.Type == TypeSymlink) {
			t.Errorf("%s: type %d", e.Path, e.Type)
		}
	}
	// A root given through a symlink is walked.
	if got := paths(walkAll(t, filepath.Join(root, "toD"), Options{})); !slices.Equal(got, []string{"f", "up"}) {
		t.Errorf("through symlinked root: %q", got)
	}
}

func TestWalkHidden(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{".env": "", ".config/a": "", "v/.h": "", "v/x": ""})
	if got := paths(walkAll(t, root, Options{})); !slices.Equal(got, []string{"v", "v/x"}) {
		t.Errorf("hidden off: %q", got)
	}
	if got := paths(walkAll(t, root, Options{Hidden: true})); !slices.Equal(got, []string{".config", ".config/a", ".env", "v", "v/.h", "v/x"}) {
		t.Errorf("hidden on: %q", got)
	}
}

func TestWalkNodeModules(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"node_modules/p/i.js": "", "a/node_modules/q": "", "b/node_modules": "file", "c.js": ""})
	if got := paths(walkAll(t, root, Options{SkipNodeModules: true})); !slices.Equal(got, []string{"a", "b", "b/node_modules", "c.js"}) {
		t.Errorf("pruned: %q", got)
	}
	got := paths(walkAll(t, root, Options{}))
	want := []string{"a", "a/node_modules", "a/node_modules/q", "b", "b/node_modules", "c.js", "node_modules", "node_modules/p", "node_modules/p/i.js"}
	if !slices.Equal(got, want) {
		t.Errorf("kept: %q", got)
	}
}

func TestWalkRootErrors(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"file": ""})
	missing := filepath.Join(root, "missing")
	_, err := Walk(context.Background(), missing, Options{})
	if !errors.Is(err, ErrPathNotFound) || err.Error() != "Path not found: "+missing {
		t.Errorf("missing root: %v", err)
	}
	file := filepath.Join(root, "file")
	_, err = Walk(context.Background(), file, Options{})
	if !errors.Is(err, ErrNotDirectory) || err.Error() != "Path is not a directory: "+file {
		t.Errorf("file root: %v", err)
	}
}

func TestWalkCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, t.TempDir(), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled: %v", err)
	}
	// Cancelled while walking a large tree: either finished or Canceled.
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(time.Millisecond); cancel() }()
	es, err := Walk(ctx, filepath.Join(goroot(t), "src"), Options{})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("mid-walk: %v", err)
	}
	if err != nil && es != nil {
		t.Error("entries returned with an error")
	}
}

// MaxDepth stops the walk: entries down to that depth are listed,
// directories at that depth are not entered (a search of / at depth 1
// must not list the whole disk).
func TestWalkMaxDepth(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"f": "", "a/g": "", "a/b/h": "", "a/b/c/i": ""})
	for depth, want := range map[int][]string{
		1: {"a", "f"},
		2: {"a", "a/b", "a/g", "f"},
		3: {"a", "a/b", "a/b/c", "a/b/h", "a/g", "f"},
		0: {"a", "a/b", "a/b/c", "a/b/c/i", "a/b/h", "a/g", "f"},
	} {
		for _, noStat := range []bool{false, true} {
			var got []string
			err := WalkStream(context.Background(), root, Options{MaxDepth: depth}, noStat, func(e Entry) error {
				got = append(got, e.Path)
				return nil
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("MaxDepth %d (noStat %v): %q, want %q", depth, noStat, got, want)
			}
		}
		if got := paths(walkAll(t, root, Options{MaxDepth: depth})); !slices.Equal(got, want) {
			t.Errorf("MaxDepth %d, whole walk: %q, want %q", depth, got, want)
		}
	}
}
