package find

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index/indextest"
)

// TestIndexMatchesWalk: the find tool of a session whose tree has a
// search index answers as the walk does, text and details, before and
// after files are edited in place and once the index is stale.
func TestIndexMatchesWalk(t *testing.T) {
	root := indextest.Tree(t)
	ix := indextest.Index(t, root)
	calls := []string{
		`{"paths":["."]}`,
		`{"paths":["*.go"]}`,
		`{"paths":["**/*.c"],"hidden":false}`,
		`{"paths":["a","sub/*.go"]}`,
		`{"paths":["node_modules/**"]}`,
		`{"paths":["."],"limit":5}`,
		`{"paths":[".hid"]}`,
		`{"paths":["c/m.c","missing/*.go"]}`,
	}
	check := func(t *testing.T, state string, answers bool) {
		t.Helper()
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Hidden: true, Gitignore: true})
		}
		for _, args := range calls {
			walk := tool.NewEnv(root)
			indexed := tool.NewEnv(root)
			indexed.Caches = &tool.Caches{Index: ix}
			a, err1 := tool.Run(context.Background(), New(walk), json.RawMessage(args), nil)
			b, err2 := tool.Run(context.Background(), New(indexed), json.RawMessage(args), nil)
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) || (err1 == nil) != (err2 == nil) {
				t.Errorf("%s, %s:\nwalk:  %s (%v)\nindex: %s (%v)", state, args, ja, err1, jb, err2)
			}
		}
	}
	check(t, "fresh index", true)
	indextest.EditInPlace(t, root)
	check(t, "files edited after indexing", true)
	indextest.Write(t, root, "a/new.go", "package a\n")
	check(t, "a file added", false)
}
