package ast

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// renameEdit is a rewrite of f(...) into g(...) over paths, applied.
func renameEdit(dir string, paths ...string) EditRequest {
	return EditRequest{Scope: Scope{Paths: paths, Cwd: dir}, Rules: []Rewrite{{Pattern: "f($A)", Out: "g($A)"}}}
}

// tempLeft fails the test when a temporary file of a rewrite is left in dir.
func tempLeft(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".gopi-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestEditLongFileName(t *testing.T) {
	t.Parallel()
	requireNative(t)
	name := strings.Repeat("n", 242) + ".py" // 245 bytes; NAME_MAX is 255
	dir := tree(t, map[string]string{name: "f(1)\n"})
	if _, err := Edit(context.Background(), renameEdit(dir, name)); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, name); got != "g(1)\n" {
		t.Fatalf("got %q", got)
	}
	tempLeft(t, dir)
}

func TestEditTempFailureChangesNothing(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n", "c.py": "f(3)\n"})
	calls := 0
	req := renameEdit(dir, ".")
	req.steps.stage = func(path string, perm os.FileMode, write func(io.Writer) error) (*atomicfile.Staged, error) {
		if calls++; calls == 2 {
			return nil, errors.New("disk full")
		}
		return atomicfile.Stage(path, perm, write)
	}
	res, err := Edit(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "disk full") || res != nil {
		t.Fatalf("want the write error and no result: %v %+v", err, res)
	}
	for name, want := range map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n", "c.py": "f(3)\n"} {
		if got := read(t, dir, name); got != want {
			t.Errorf("%s changed to %q", name, got)
		}
	}
	tempLeft(t, dir)
}

func TestEditRenameFailureReportsPartial(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n", "c.py": "f(3)\n"})
	calls := 0
	req := renameEdit(dir, ".")
	req.steps.commit = func(s *atomicfile.Staged) error {
		if calls++; calls == 2 {
			return errors.New("device gone")
		}
		return s.Commit()
	}
	res, err := Edit(context.Background(), req)
	var pe *PartialWriteError
	if !errors.As(err, &pe) || res == nil {
		t.Fatalf("want a partial write error with a result: %v %+v", err, res)
	}
	if strings.Join(pe.Written, ",") != "a.py" || strings.Join(pe.Unwritten, ",") != "b.py,c.py" ||
		strings.Join(res.Written, ",") != "a.py" || res.Applied {
		t.Fatalf("partial %+v, result written %v applied %v", pe, res.Written, res.Applied)
	}
	if msg := err.Error(); !strings.Contains(msg, "device gone") || !strings.Contains(msg, "1 of 3 files written (a.py), not written: b.py, c.py") {
		t.Errorf("message %q", msg)
	}
	if read(t, dir, "a.py") != "g(1)\n" || read(t, dir, "b.py") != "f(2)\n" || read(t, dir, "c.py") != "f(3)\n" {
		t.Error("files do not match the report")
	}
	tempLeft(t, dir)
}

func TestEditWritesThroughSymlinkKeepingMode(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"real/t.py": "f(1)\n", "x.py": "f(2)\n"})
	target := filepath.Join(dir, "real", "t.py")
	if err := os.Chmod(target, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "x.py"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "t.py"), filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	res, err := Edit(context.Background(), renameEdit(dir, "link.py", "x.py"))
	if err != nil || !res.Applied || res.FilesTouched != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.py")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link.py is no longer a symlink: %v %v", fi.Mode(), err)
	}
	if got := read(t, dir, "real/t.py"); got != "g(1)\n" {
		t.Fatalf("target %q", got)
	}
	for name, mode := range map[string]os.FileMode{"real/t.py": 0o750, "x.py": 0o600} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s mode %v, want %v (%v)", name, fi.Mode().Perm(), mode, err)
		}
	}
	tempLeft(t, filepath.Join(dir, "real"))
	tempLeft(t, dir)
}

func TestSearchHugeLimit(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\nf(2)\nf(3)\n"})
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"a.py"}, Cwd: dir}, Patterns: []string{"f($A)"}, Offset: 1, Limit: math.MaxInt})
	if locations(res.Matches) != "a.py:2 a.py:3" || res.LimitReached {
		t.Fatalf("%s %v", locations(res.Matches), res.LimitReached)
	}
}

func TestUnsupportedNotes(t *testing.T) {
	t.Parallel()
	got := strings.Join(UnsupportedNotes(map[string]int{"toml": 2, "sql": 1, "none": 0}), "\n")
	if got != "1 sql files not searched: no sql grammar is built in\n2 toml files not searched: no toml grammar is built in" {
		t.Fatalf("%q", got)
	}
}

// A file changed by another writer after the rewrite read it is not
// overwritten: the rewrite fails as stale and writes nothing, since its
// result was computed from content that is gone.
func TestEditStaleFileNotOverwritten(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n"})
	req := renameEdit(dir, ".")
	req.Check = func(*EditResult) error {
		// Another writer changes b.py between the read and the write.
		return os.WriteFile(filepath.Join(dir, "b.py"), []byte("f(2)\nh(3)\n"), 0o644)
	}
	res, err := Edit(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "b.py changed while it was being rewritten") || res != nil {
		t.Fatalf("want a stale error and no result: %v %+v", err, res)
	}
	if got := read(t, dir, "b.py"); got != "f(2)\nh(3)\n" {
		t.Errorf("the other writer's change was lost: %q", got)
	}
	if got := read(t, dir, "a.py"); got != "f(1)\n" {
		t.Errorf("a.py was written although the rewrite failed: %q", got)
	}
	tempLeft(t, dir)
}

// A read-only file fails the rewrite before anything is written.
func TestEditRefusesReadOnlyFile(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n"})
	if err := os.Chmod(filepath.Join(dir, "b.py"), 0o444); err != nil {
		t.Fatal(err)
	}
	res, err := Edit(context.Background(), renameEdit(dir, "."))
	if err == nil || !strings.Contains(err.Error(), "b.py is read-only") || res != nil {
		t.Fatalf("want a read-only error and no result: %v %+v", err, res)
	}
	if read(t, dir, "a.py") != "f(1)\n" || read(t, dir, "b.py") != "f(2)\n" {
		t.Error("files changed")
	}
	tempLeft(t, dir)
}
