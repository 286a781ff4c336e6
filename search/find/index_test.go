package find

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index/indextest"
)

// TestIndexMatchesWalk: gopi find answered from the index prints what the
// walk prints, byte for byte, for every kind of run the index answers and
// those it does not (which walk), on a fresh index, after files were
// edited in place (read again, not trusted) and after a file was added
// (the index is stale: the walk answers).
func TestIndexMatchesWalk(t *testing.T) {
	root := indextest.Tree(t)
	ix := indextest.Index(t, root)
	runs := []Options{
		{Type: "f"},
		{Type: "f", Hidden: true},
		{Type: "f", Pattern: "*.go"},
		{Type: "f", Pattern: "*.GO", IgnoreCase: true},
		{Type: "f", Pattern: "a/**/*.go", FullPath: true},
		{Type: "f", Pattern: "err", Regex: true, Hidden: true},
		{Type: "f", Extensions: []string{"c", "h"}},
		{Type: "f", Excludes: []string{"gen"}, MaxDepth: 2},
		{Type: "f", JSON: true, Hidden: true},
		{Type: "f", Newest: true},
		{Type: "f", Limit: 3},
		{Type: "f", Sizes: []string{"+60b"}},
		{Type: "x"},
		{Type: "f", Paths: []string{"sub"}},
		{Type: "f", Paths: []string{".hid"}},
		{Type: "f", Paths: []string{"node_modules"}},
		{Type: "f", Paths: []string{"a", "c"}, Absolute: true},
		{Type: "f", Print0: true},
		{},          // directories and links: always the walk
		{Type: "d"}, // likewise
		{Type: "l"}, // likewise
		{Type: "f", Follow: true},
	}
	check := func(t *testing.T, state string, answers bool) {
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Gitignore: true, NodeModules: true})
		}
		for i, o := range runs {
			o.Gitignore = true
			if o.Paths != nil {
				abs := make([]string, len(o.Paths))
				for j, p := range o.Paths {
					abs[j] = filepath.Join(root, p)
				}
				o.Paths = abs
			} else {
				o.Paths = []string{root}
			}
			walk, walkErr, walkCode, err1 := runFind(t, o)
			o.Index = ix
			indexed, indexedErr, indexedCode, err2 := runFind(t, o)
			if walk != indexed || walkErr != indexedErr || walkCode != indexedCode || fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Errorf("%s, run %d %+v:\nwalk (%d, %v):\n%s%s\nindex (%d, %v):\n%s%s", state, i, o, walkCode, err1, walk, walkErr, indexedCode, err2, indexed, indexedErr)
			}
		}
	}
	check(t, "fresh index", true)
	indextest.EditInPlace(t, root)
	check(t, "files edited after indexing", true)
	if err := os.Chmod(filepath.Join(root, "gen", "f01.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	check(t, "a file made executable", true)
	indextest.Write(t, root, "a/new.go", "package a\n")
	check(t, "a file added", false)
}
