package registry

import (
	"slices"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/task"
)

// positionHost is a subagent host that only answers Position.
type positionHost struct {
	task.Host
	pos task.Position
}

func (h positionHost) Position() task.Position { return h.pos }

// checkpoint and rewind are offered with checkpoint.enabled (off by
// default) in a top-level session, never in a subagent.
func TestCheckpointTools(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	offered := func() (names []string) {
		for _, e := range Builtins() {
			if (e.Name == "checkpoint" || e.Name == "rewind") && e.Available(env, svc) {
				names = append(names, e.New(env, svc).Definition().Name)
			}
		}
		return names
	}
	if got := offered(); len(got) != 0 {
		t.Fatalf("offered by default: %v", got)
	}
	env.Settings.CheckpointEnabled = true
	svc.Subagents = positionHost{pos: task.TopLevel}
	if got := offered(); !slices.Equal(got, []string{"checkpoint", "rewind"}) {
		t.Fatalf("top-level session with checkpoint.enabled: %v", got)
	}
	svc.Subagents = positionHost{pos: task.Position{Depth: 1, Spawns: []string{"*"}}}
	if got := offered(); len(got) != 0 {
		t.Fatalf("offered to a subagent: %v", got)
	}
}
