package astedit

import (
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
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
	indextest.States(t, root, func(state string, answers bool) {
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Hidden: true, Gitignore: true})
		}
		walk := tool.NewEnv(root)
		walk.Settings = tool.DefaultSettings()
		indexed := tool.NewEnv(root)
		indexed.Settings = tool.DefaultSettings()
		indexed.Caches = &tool.Caches{Index: ix}
		tooltest.SameResults(t, state, New(walk, resolve.NewQueue()), New(indexed, resolve.NewQueue()), calls)
	})
}
