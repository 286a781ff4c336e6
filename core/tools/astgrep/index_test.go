package astgrep

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	native "github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index/indextest"
)

// TestIndexMatchesWalk: ast_grep in a session whose tree has a search
// index answers as the walk does (text and details: matches, files
// searched, parse issues), before and after files are edited in place
// and once the index is stale.
func TestIndexMatchesWalk(t *testing.T) {
	if !native.Available {
		t.Skip("native library not linked")
	}
	root := indextest.Tree(t)
	ix := indextest.Index(t, root)
	calls := []string{
		`{"pat":"fmt.Errorf($$$A)","paths":["."]}`,
		`{"pat":"printk(KERN_INFO $$$A)","paths":["c"]}`,
		`{"pat":"return $X","paths":["**/*.go"]}`,
		`{"pat":"fmt.Errorf($$$A)","paths":["a","sub","node_modules"],"skip":1}`,
		`{"pat":"fmt.Errorf($$$A)","paths":["a/x.go","c/*.c"]}`,
	}
	check := func(t *testing.T, state string, answers bool) {
		t.Helper()
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Hidden: true, Gitignore: true})
		}
		for _, args := range calls {
			walk := tool.NewEnv(root)
			walk.Settings = tool.DefaultSettings()
			indexed := tool.NewEnv(root)
			indexed.Settings = tool.DefaultSettings()
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
	indextest.Write(t, root, "a/new.go", "package a\nvar e = fmt.Errorf(\"new\")\n")
	check(t, "a file added", false)
}
