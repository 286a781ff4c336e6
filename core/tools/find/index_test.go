package find

import (
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
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
	indextest.States(t, root, func(state string, answers bool) {
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Hidden: true, Gitignore: true})
		}
		walk := tool.NewEnv(root)
		indexed := tool.NewEnv(root)
		indexed.Caches = &tool.Caches{Index: ix}
		tooltest.SameResults(t, state, New(walk), New(indexed), calls)
	})
}
