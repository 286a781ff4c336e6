package read

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// TestDescriptionFollowsDisplayMode: the description promises the line
// prefix the session shows — anchors only when edit takes them.
func TestDescriptionFollowsDisplayMode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mode      tool.EditMode
		want, not string
	}{
		{tool.EditHashline, "ANCHOR|TEXT", "NUMBER|TEXT"},
		{tool.EditReplace, "NUMBER|TEXT", "ANCHOR|TEXT"},
		{tool.EditApplyPatch, "NUMBER|TEXT", "ANCHOR|TEXT"},
	} {
		env := tool.NewEnv(t.TempDir())
		env.Settings = tool.DefaultSettings()
		env.Settings.EditMode = c.mode
		env.Settings.ReadLineNumbers = true // numbers where anchors are off
		desc := New(env, nil).Definition().Description
		if !strings.Contains(desc, c.want) || strings.Contains(desc, c.not) {
			t.Errorf("%s mode:\n%s", c.mode, desc)
		}
	}
}
