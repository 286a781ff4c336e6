package memoryfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if _, err := (Files{Roots: []string{root}}).Resolve("memory://root"); err != ErrNoMemories {
		t.Fatalf("no root: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, SummaryFile), []byte("sum"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := Files{Roots: []string{filepath.Join(dir, "missing"), root}}
	if c, _, err := f.Read("memory://root/"); err != nil || c != "sum" {
		t.Errorf("summary: %q %v", c, err)
	}
	for url, want := range map[string]string{
		"memory://":             "no namespace",
		"memory://other/x":      "unknown memory namespace",
		"memory://root/../x":    `".."`,
		"memory://root/link":    "leads out",
		"memory://root/d":       "is not a file",
		"memory://root/nope.md": "no memory file",
		"memory://root/~x":      "relative",
	} {
		if _, err := f.Resolve(url); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", url, err, want)
		}
	}
}
