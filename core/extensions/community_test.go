package extensions

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// pi-aliases 1.0.7 (npm, MIT; a copy in testdata/community with its
// licence) loads unchanged as a package directory and registers its two
// commands.
func TestCommunityPiAliases(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "community", "pi-aliases"))
	if err != nil {
		t.Fatal(err)
	}
	entries, errs := Resolve(Sources{Cwd: t.TempDir(), Paths: []string{dir}, NoDiscovery: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rt := Load(context.Background(), entries, Options{Cwd: t.TempDir()})
	defer rt.Close()
	if len(rt.Errors()) > 0 {
		t.Fatal(rt.Errors())
	}
	var names []string
	for _, c := range rt.Commands() {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"clear", "exit"}) {
		t.Errorf("commands %v", names)
	}
}
