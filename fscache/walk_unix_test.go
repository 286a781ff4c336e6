//go:build unix

package fscache

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

func TestWalkOtherTypesAndUnreadable(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"locked/secret": "", "open/f": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, "locked"), 0o755) })
	es := walkAll(t, root, Options{})
	want := []string{"fifo", "locked", "open", "open/f"}
	if os.Geteuid() == 0 {
		want = []string{"fifo", "locked", "locked/secret", "open", "open/f"} // root reads anything
	}
	if !slices.Equal(paths(es), want) {
		t.Errorf("got %q, want %q", paths(es), want)
	}
	if es[0].Type != TypeOther {
		t.Errorf("fifo type %d", es[0].Type)
	}
}
