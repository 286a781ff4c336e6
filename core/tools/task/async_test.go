package task

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// asyncTool returns a task tool with background jobs on, and the
// deliveries its jobs make.
func asyncTool(t *testing.T, h *fakeHost) (tool.Tool, *job.Manager, chan job.Delivery) {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	env.Artifacts = artifact.NewStore(artifactsDir(t))
	env.Settings.Bash.AsyncEnabled = true
	m := job.NewManagerFor(env)
	t.Cleanup(func() { m.Close() })
	got := make(chan job.Delivery, 16)
	m.SetDeliver(func(_ context.Context, d job.Delivery) error { got <- d; return nil })
	return New(env, h, m, &IDs{}), m, got
}

// With async.enabled the call returns at once: each task is a background
// job, the subagents run while the parent goes on, and each result is
// delivered when it is done.
func TestAsyncTasksRunAsJobs(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, nil)
	h.hold = make(chan struct{})
	tl, m, got := asyncTool(t, h)
	res, _ := execute(t, context.Background(), tl, map[string]any{"agent": "explore", "tasks": tasks("A", "B")})
	if res.IsError || !strings.HasPrefix(res.FirstText(), "Started 2 background task jobs using explore: 0-A, 1-B.") {
		t.Fatalf("result: %s", res.FirstText())
	}
	d := res.Details.(*Details)
	if d.Async == nil || d.Async.State != "running" || d.Async.JobID != "0-A" || d.Async.Type != "task" || len(d.Progress) != 2 || len(d.Results) != 0 {
		t.Fatalf("details %+v", d)
	}
	waitStarted(t, h, 2) // both subagents are working after the call returned
	if running := m.Running(); len(running) != 2 || running[0].Type != "task" {
		t.Fatalf("running jobs %+v", running)
	}
	close(h.hold)
	seen := map[string]string{}
	for range 2 {
		select {
		case d := <-got:
			seen[d.JobID] = d.Text
		case <-time.After(5 * time.Second):
			t.Fatal("no delivery")
		}
	}
	for _, id := range []string{"0-A", "1-B"} {
		if !strings.Contains(seen[id], `<task id="`+id+`" status="completed">`+"\nanswer to do "+id[2:]) {
			t.Errorf("delivery of %s: %q", id, seen[id])
		}
		if _, err := os.Stat(filepath.Join(artifactsDirOf(tl), id+".md")); err != nil {
			t.Errorf("output of %s not kept: %v", id, err)
		}
	}
}

// artifactsDirOf digs the artifacts directory out of a bound tool.
func artifactsDirOf(tl tool.Tool) string { return tl.(*Tool).env.Artifacts.Dir() }

// The background tasks share the task.maxConcurrency limit, and a
// cancelled job ends its subagent.
func TestAsyncTasksLimitAndCancel(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, map[string]any{"task": map[string]any{"maxConcurrency": 1}})
	h.hold = make(chan struct{})
	tl, m, got := asyncTool(t, h)
	execute(t, context.Background(), tl, map[string]any{"agent": "explore", "tasks": tasks("A", "B")})
	first := <-h.started // either task may get the one slot first
	select {
	case a := <-h.started:
		t.Fatalf("a second subagent started (%s) with maxConcurrency 1", a)
	case <-time.After(200 * time.Millisecond):
	}
	cancelled, other := "0-A", "1-B"
	if first == "do B" {
		cancelled, other = other, cancelled
	}
	if !m.Cancel(cancelled) {
		t.Fatal("cancel", cancelled)
	}
	waitStarted(t, h, 1) // the other one gets the slot
	close(h.hold)
	select {
	case d := <-got:
		if d.JobID != other {
			t.Fatalf("delivered %s", d.JobID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery")
	}
	if s, _ := m.Get(cancelled); s.Status != job.Cancelled {
		t.Errorf("%s: %+v", cancelled, s)
	}
}

// A blocking agent runs in the foreground even with async.enabled.
func TestBlockingAgentStaysInForeground(t *testing.T) {
	h := newFakeHost(t, nil)
	tl, m, _ := asyncTool(t, h)
	dir := filepath.Join(h.cfg.Cwd, ".gopi", "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	def := "---\nname: gate\ndescription: must finish first\nblocking: true\n---\nCheck.\n"
	if err := os.WriteFile(filepath.Join(dir, "gate.md"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	old := tl.(*Tool)
	tl = New(old.env, old.host, old.jobs, old.ids) // definitions are read when the tool is built
	res, _ := execute(t, context.Background(), tl, map[string]any{"agent": "gate", "tasks": tasks("A")})
	if res.IsError || !strings.HasPrefix(res.FirstText(), "1 of 1 gate tasks completed") || len(m.All()) != 0 {
		t.Fatalf("result %s, jobs %+v", res.FirstText(), m.All())
	}
}
