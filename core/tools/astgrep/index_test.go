package astgrep

import (
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
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
	indextest.States(t, root, func(state string, answers bool) {
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Hidden: true, Gitignore: true})
		}
		walk := tool.NewEnv(root)
		walk.Settings = tool.DefaultSettings()
		indexed := tool.NewEnv(root)
		indexed.Settings = tool.DefaultSettings()
		indexed.Caches = &tool.Caches{Index: ix}
		tooltest.SameResults(t, state, New(walk), New(indexed), calls)
	})
}
