package job

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// testEnv is a tool environment with the session's job manager.
type testEnv struct {
	*tool.Env
	jobs *Manager
}

func newEnv(t *testing.T, enabled bool) *testEnv {
	env := tool.NewEnv(t.TempDir())
	env.Settings.Bash.AsyncEnabled = enabled
	env.Settings.Bash.PollWait = 300 * time.Millisecond
	m := NewManagerFor(env)
	t.Cleanup(func() { m.Shutdown(time.Second) })
	return &testEnv{env, m}
}

func call(t *testing.T, env *testEnv, args string, onUpdate tool.UpdateFunc) (*tool.Result, Details) {
	t.Helper()
	res, err := tool.Run(context.Background(), New(env.Env, env.jobs), json.RawMessage(args), onUpdate)
	if err != nil {
		t.Fatal(err)
	}
	var d Details
	if res.Details != nil {
		d = res.Details.(Details)
	}
	return res, d
}

func TestJobDisabled(t *testing.T) {
	t.Parallel()
	env := newEnv(t, false)
	if Available(env.Env) {
		t.Fatal("available")
	}
	res, _ := call(t, env, `{"list": true}`, nil)
	if res.FirstText() != disabledText {
		t.Fatal(res.FirstText())
	}
	env.Settings.Bash.AutoBackground = true
	if !Available(env.Env) {
		t.Fatal("auto-background should enable the tool")
	}
}

func TestJobPollAndList(t *testing.T) {
	t.Parallel()
	env := newEnv(t, true)
	m := env.jobs
	if res, _ := call(t, env, `{}`, nil); res.FirstText() != noRunningText {
		t.Fatal(res.FirstText())
	}
	if res, _ := call(t, env, `{"list": true}`, nil); res.FirstText() != "No background jobs." {
		t.Fatal(res.FirstText())
	}
	fast, _ := m.Register("bash", "make test", sleeper(50*time.Millisecond, "ok\n"), RegisterOptions{})
	slow, _ := m.Register("bash", "sleep 60", sleeper(time.Hour, ""), RegisterOptions{})
	var updates atomic.Int32
	res, d := call(t, env, `{}`, func(p *tool.Result) { updates.Add(1) })
	want := "## Completed (1)\n\n### bg_1 [bash] — completed\nLabel: make test\n```\nok\n\n```\n\n## Still Running (1)\n\n- `bg_2` [bash] — sleep 60"
	if res.FirstText() != want {
		t.Fatalf("%q", res.FirstText())
	}
	if len(d.Jobs) != 2 || d.Jobs[0].Status != Completed || d.Jobs[1].Status != Running || updates.Load() == 0 {
		t.Fatalf("%+v %d", d, updates.Load())
	}
	// The completed result was seen: it is not delivered afterwards.
	if p := m.Pending(); len(p) != 0 {
		t.Fatal(p)
	}
	// Polling a running job returns its state when the wait window ends.
	start := time.Now()
	res, _ = call(t, env, `{"poll": ["`+slow+`", "nope"]}`, nil)
	if !strings.HasPrefix(res.FirstText(), "## Still Running (1)") || time.Since(start) < 250*time.Millisecond {
		t.Fatal(res.FirstText())
	}
	res, _ = call(t, env, `{"poll": ["nope", "gone"]}`, nil)
	if res.FirstText() != "No matching jobs found for IDs: nope, gone" {
		t.Fatal(res.FirstText())
	}
	res, d = call(t, env, `{"list": true}`, nil)
	if len(d.Jobs) != 2 || !strings.Contains(res.FirstText(), "## Completed (1)") || !strings.Contains(res.FirstText(), "## Still Running (1)") {
		t.Fatal(res.FirstText())
	}
	if res, _ := call(t, env, `{"list": true, "cancel": ["x"]}`, nil); !res.IsError || res.FirstText() != listConflict {
		t.Fatal(res.FirstText())
	}
	_ = fast
}

func TestJobCancel(t *testing.T) {
	t.Parallel()
	env := newEnv(t, true)
	m := env.jobs
	id, _ := m.Register("bash", "sleep 60", sleeper(time.Hour, ""), RegisterOptions{})
	done, _ := m.Register("bash", "true", sleeper(0, ""), RegisterOptions{})
	m.WaitAny(context.Background(), []string{done})
	res, d := call(t, env, `{"cancel": ["`+id+`", "`+done+`", "nope"]}`, nil)
	want := "## Cancelled (3)\n\n- Cancelled background job bg_1.\n- Background job bg_2 is already completed.\n- Background job not found: nope"
	if !strings.HasPrefix(res.FirstText(), want) {
		t.Fatalf("%q", res.FirstText())
	}
	if len(d.Cancelled) != 3 || d.Cancelled[0].Status != "cancelled" || d.Cancelled[1].Status != "already_completed" || d.Cancelled[2].Status != "not_found" {
		t.Fatalf("%+v", d.Cancelled)
	}
	if s, _ := m.Get(id); s.Status != Cancelled {
		t.Fatal(s)
	}
	// Cancel then poll: the cancelled jobs and the polled ones are reported.
	other, _ := m.Register("bash", "sleep 1", sleeper(20*time.Millisecond, "x"), RegisterOptions{})
	res, _ = call(t, env, `{"cancel": ["nope"], "poll": ["`+other+`"]}`, nil)
	if !strings.Contains(res.FirstText(), "## Cancelled (1)") || !strings.Contains(res.FirstText(), "### "+other+" [bash] — completed") {
		t.Fatal(res.FirstText())
	}
}

func TestJobPollAbort(t *testing.T) {
	t.Parallel()
	env := newEnv(t, true)
	env.Settings.Bash.PollWait = time.Hour
	m := env.jobs
	m.Register("bash", "sleep", sleeper(time.Hour, ""), RegisterOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, _ := tool.Run(ctx, New(env.Env, env.jobs), json.RawMessage(`{}`), nil)
	if time.Since(start) > 2*time.Second || res == nil {
		t.Fatal("abort did not stop the wait")
	}
	if s, _ := m.Get("bg_1"); s.Status != Running {
		t.Fatal("abort cancelled the job", s)
	}
}
