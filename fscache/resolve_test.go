package fscache

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolveSearchPath(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"d/sub/": "", "f": ""})
	real, _ := filepath.EvalSymlinks(filepath.Join(base, "d"))
	if err := os.Symlink(filepath.Join(base, "d"), filepath.Join(base, "ln")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	for _, in := range []string{"d", "./d/", "d/sub/..", "ln", filepath.Join(base, "ln")} {
		got, err := ResolveSearchPath(in)
		if err != nil || got != real {
			t.Errorf("ResolveSearchPath(%q) = %q, %v; want %q", in, got, err, real)
		}
	}
	t.Chdir(filepath.Join(base, "d"))
	if got, err := ResolveSearchPath(""); err != nil || got != real {
		t.Errorf(`ResolveSearchPath("") = %q, %v`, got, err)
	}
	for in, want := range map[string]error{"nope": ErrPathNotFound, "../f": ErrNotDirectory, "../f/x": ErrPathNotFound} {
		_, err := ResolveSearchPath(in)
		var re *RootError
		if !errors.Is(err, want) || !errors.As(err, &re) || re.Path != in {
			t.Errorf("ResolveSearchPath(%q): %v", in, err)
		}
	}
	if _, err := ResolveSearchPath("../f"); err.Error() != "Path is not a directory: ../f" {
		t.Errorf("message: %q", err)
	}
	if _, err := ResolveSearchPath("nope"); err.Error() != "Path not found: nope" {
		t.Errorf("message: %q", err)
	}
}
