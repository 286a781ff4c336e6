package registry

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// A screenshot saved to a named file is asked about as a write call of
// that path through the session's hooks (CallThrough): a refusal keeps
// it from being written, an allowed one writes it; plan mode refuses it
// before the hooks are asked.
func TestScreenshotGateAsksAsWrite(t *testing.T) {
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	abs := filepath.Join(dir, "shots", "a.png")
	var asked []tool.Args
	refuse := true
	svc := &Services{CallThrough: func(ctx context.Context, name string, _ tool.Tool, args tool.Args, run func() (*tool.Result, error)) (*tool.Result, error) {
		if name != "write" {
			t.Errorf("asked about %q, want write", name)
		}
		asked = append(asked, args)
		if refuse {
			return nil, errors.New("the user refused")
		}
		return run()
	}}
	gate := screenshotGate(env, svc)
	wrote := 0
	write := func() error { wrote++; return nil }

	err := gate(context.Background(), abs, 1234, write)
	if err == nil || !strings.Contains(err.Error(), "the user refused") || wrote != 0 {
		t.Fatalf("refused: err %v, written %d times", err, wrote)
	}
	if len(asked) != 1 || asked[0]["path"] != abs || !strings.Contains(asked[0]["content"].(string), "1234 bytes") {
		t.Fatalf("asked %v", asked)
	}
	refuse = false
	if err := gate(context.Background(), abs, 1234, write); err != nil || wrote != 1 {
		t.Fatalf("allowed: err %v, written %d times", err, wrote)
	}
	env.SetPlanMode(&tool.PlanMode{File: "local://PLAN.md", Abs: filepath.Join(dir, "PLAN.md")})
	if err := gate(context.Background(), abs, 1234, write); err == nil || !strings.Contains(err.Error(), "Plan mode") || wrote != 1 || len(asked) != 2 {
		t.Fatalf("plan mode: err %v, written %d times, asked %d times", err, wrote, len(asked))
	}
}
