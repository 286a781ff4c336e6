package projectbin

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFindPrefersTheProjectsOwnPrograms(t *testing.T) {
	root, sys := t.TempDir(), t.TempDir()
	write := func(p string, mode os.FileMode) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "package.json"), 0o644)
	write(filepath.Join(root, "node_modules/.bin/tsserver"), 0o755)
	write(filepath.Join(root, "node_modules/.bin/notexec"), 0o644)
	write(filepath.Join(root, ".venv/bin/pyright"), 0o755) // no Python marker: not searched
	write(filepath.Join(sys, "tsserver"), 0o755)
	write(filepath.Join(sys, "pyright"), 0o755)

	dirs := Dirs(root)
	if want := []string{filepath.Join(root, "node_modules/.bin")}; !slices.Equal(dirs, want) {
		t.Fatalf("Dirs = %q, want %q", dirs, want)
	}
	search := append(dirs, "", sys)
	for cmd, want := range map[string]string{
		"tsserver":                    filepath.Join(root, "node_modules/.bin/tsserver"),
		"pyright":                     filepath.Join(sys, "pyright"),
		"notexec":                     "",
		"missing":                     "",
		filepath.Join(sys, "pyright"): filepath.Join(sys, "pyright"),
		filepath.Join(sys, "nothere"): "",
	} {
		if got := Find(cmd, search); got != want {
			t.Errorf("Find(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestHasMarkerGlobs(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "app.csproj"), nil, 0o644)
	if !HasMarker(root, []string{"*.csproj"}) || HasMarker(root, []string{"*.sln", "go.mod"}) {
		t.Error("markers judged wrongly")
	}
}

// Markers.Has answers as HasMarker does: names, globs, nested paths,
// directories, missing names, and a root that cannot be read.
func TestMarkersMatchHasMarker(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"go.mod", "pkg.cabal", "prisma/schema.prisma", "App.xcodeproj/x"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := [][]string{{"go.mod"}, {"Cargo.toml"}, {"*.cabal"}, {"*.sln"}, {"prisma/schema.prisma"}, {"prisma/other"},
		{"*.xcodeproj"}, {"prisma"}, {"Cargo.toml", "*.opam", "go.mod"}, {}, {"[bad"}}
	for _, root := range []string{root, filepath.Join(root, "missing")} {
		m := ReadMarkers(root)
		for _, c := range cases {
			if got, want := m.Has(c), HasMarker(root, c); got != want {
				t.Errorf("%s: Has(%q) = %v, HasMarker %v", root, c, got, want)
			}
		}
	}
}
