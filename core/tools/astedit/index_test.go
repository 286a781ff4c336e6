package astedit

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	native "github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index/indextest"
)

// TestIndexMatchesWalk: ast_edit's preview in a session whose tree has a
// search index is the walk's (text and details: replacements, files
// searched, parse errors), before and after files are edited in place
// and once the index is stale.
func TestIndexMatchesWalk(t *testing.T) {
	if !native.Available {
		t.Skip("native library not linked")
	}
	root := indextest.Tree(t)
	ix := indextest.Index(t, root)
	calls := []string{
		`{"ops":[{"pat":"fmt.Errorf($$$A)","out":"errors.New($$$A)"}],"paths":["**/*.go"]}`,
		`{"ops":[{"pat":"fmt.Errorf($$$A)","out":"errors.New($$$A)"},{"pat":"fmt.Println($A)","out":"println($A)"}],"paths":["a","sub"]}`,
		`{"ops":[{"pat":"printk(KERN_INFO $$$A)","out":"pr_info($$$A)"}],"paths":["c"]}`,
		`{"ops":[{"pat":"fmt.Errorf($$$A)","out":"nil"}],"paths":["."]}`,
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
			a, err1 := tool.Run(context.Background(), New(walk, resolve.NewQueue()), json.RawMessage(args), nil)
			b, err2 := tool.Run(context.Background(), New(indexed, resolve.NewQueue()), json.RawMessage(args), nil)
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
