package ask

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// timeoutUI records the timeout of each question.
type timeoutUI struct {
	scriptedUI
	timeouts []time.Duration
}

func (u *timeoutUI) Select(ctx context.Context, title string, options []string, timeout time.Duration) (string, error) {
	u.timeouts = append(u.timeouts, timeout)
	return u.scriptedUI.Select(ctx, title, options, timeout)
}

// While planning, a question waits for the user whatever ask.timeout says.
func TestAskWithoutTimeoutInPlanMode(t *testing.T) {
	t.Parallel()
	ui := &timeoutUI{scriptedUI: scriptedUI{choices: []string{"Postgres", "Postgres"}}}
	env := tool.NewEnv(t.TempDir())
	env.UI = ui
	env.Settings.AskTimeout = 30
	for _, planning := range []bool{false, true} {
		if planning {
			env.SetPlanMode(&tool.PlanMode{File: "local://PLAN.md", Abs: "/tmp/PLAN.md"})
		}
		if res, err := tool.Run(context.Background(), New(env), json.RawMessage(oneQuestion), nil); err != nil || res.IsError {
			t.Fatalf("ask: %v %v", err, res)
		}
	}
	if len(ui.timeouts) != 2 || ui.timeouts[0] != 30*time.Second || ui.timeouts[1] != 0 {
		t.Fatalf("timeouts %v, want [30s 0s]", ui.timeouts)
	}
}
