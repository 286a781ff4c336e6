//go:build unix

package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A --resume path that is not a readable regular file is refused with what
// it is; a regular file (also through a link) resolves to its path.
func TestResolvePathKinds(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	l := Locations{Roots: []string{filepath.Join(root, "sessions")}, Home: root}
	file := filepath.Join(root, "s.jsonl")
	if err := os.WriteFile(file, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link.jsonl")
	dangling := filepath.Join(root, "dangling.jsonl")
	fifo := filepath.Join(root, "fifo.jsonl")
	for _, err := range []error{os.Symlink(file, link), os.Symlink(filepath.Join(root, "gone"), dangling), syscall.Mkfifo(fifo, 0o644)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, arg := range []string{file, link} {
		if p, err := Resolve(l, root, arg); err != nil || p != arg {
			t.Errorf("%s: %q, %v", arg, p, err)
		}
	}
	for _, tc := range []struct{ arg, want string }{
		{root, "is a directory"},
		{dangling, "is a symbolic link to " + filepath.Join(root, "gone") + ", which does not exist"},
		{fifo, "is a named pipe"},
		{filepath.Join(root, "none", "x.jsonl"), "does not exist"},
		{"x.jsonl", "does not exist"},
	} {
		_, err := Resolve(l, root, tc.arg)
		if !errors.Is(err, ErrNotSessionPath) || errors.Is(err, ErrNoMatch) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.arg, err)
		}
	}
	if _, err := Resolve(l, root, "x.jsonl"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// A path through a file cannot be read at all.
	if _, err := Resolve(l, root, filepath.Join(file, "x.jsonl")); err == nil || !strings.Contains(err.Error(), "cannot read session file") {
		t.Errorf("path through a file: %v", err)
	}
	if os.Geteuid() != 0 {
		locked := filepath.Join(root, "locked.jsonl")
		if err := os.WriteFile(locked, []byte("{}\n"), 0o000); err != nil {
			t.Fatal(err)
		}
		if _, err := Resolve(l, root, locked); err == nil || !strings.Contains(err.Error(), "check its permissions") {
			t.Errorf("unreadable file: %v", err)
		}
	}
}
