package search

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// TestDescriptionFollowsDisplayMode: REF is called an anchor only when
// the edit tool takes anchors.
func TestDescriptionFollowsDisplayMode(t *testing.T) {
	t.Parallel()
	for mode, want := range map[tool.EditMode]string{
		tool.EditHashline: refHashline,
		tool.EditReplace:  refLineNumber,
	} {
		env := tool.NewEnv(t.TempDir())
		env.Settings = tool.DefaultSettings()
		env.Settings.EditMode = mode
		if desc := New(env).Definition().Description; !strings.Contains(desc, "REF is "+want) {
			t.Errorf("%s mode:\n%s", mode, desc)
		}
	}
}
