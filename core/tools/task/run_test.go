package task

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

// waitStarted waits until n children have started.
func waitStarted(t *testing.T, h *fakeHost, n int) {
	t.Helper()
	for range n {
		select {
		case <-h.started:
		case <-time.After(5 * time.Second):
			t.Fatal("children did not start")
		}
	}
}

func TestTasksRunInParallel(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, nil)
	h.hold = make(chan struct{})
	dir := artifactsDir(t)
	tl := bind(t, h, dir)
	done := make(chan struct{})
	var res *tool.Result
	var updates []*Details
	go func() {
		defer close(done)
		res, updates = execute(t, context.Background(), tl, map[string]any{"agent": "explore", "tasks": tasks("A", "B", "C")})
	}()
	waitStarted(t, h, 3)
	close(h.hold)
	<-done
	if h.peak != 3 {
		t.Errorf("peak concurrency %d, want 3", h.peak)
	}
	if res.IsError {
		t.Fatalf("error result: %s", res.FirstText())
	}
	d := res.Details.(*Details)
	for i, id := range []string{"0-A", "1-B", "2-C"} {
		r := d.Results[i]
		if r.ID != id || r.Status != StatusCompleted || r.Output != "answer to do "+id[2:] || r.Tokens != 15 || r.ToolCount != 1 || r.Model != "fake/m" {
			t.Errorf("result %d: %+v", i, r)
		}
		if b, err := os.ReadFile(r.OutputPath); err != nil || string(b) != r.Output {
			t.Errorf("output file of %s: %q %v", id, b, err)
		}
		if !strings.Contains(res.FirstText(), `<task id="`+id+`" status="completed">`+"\nanswer to do "+id[2:]) {
			t.Errorf("text lacks %s:\n%s", id, res.FirstText())
		}
	}
	if !strings.HasPrefix(res.FirstText(), "3 of 3 explore tasks completed") {
		t.Errorf("header: %s", res.FirstText())
	}
	// Some update showed all three running at once, and the first showed
	// them pending.
	all := false
	for _, u := range updates {
		n := 0
		for _, p := range u.Progress {
			if p.Status == StatusRunning {
				n++
			}
		}
		all = all || n == 3
	}
	if !all || updates[0].Progress[0].Status != StatusPending {
		t.Errorf("updates never had the three tasks running together (first %+v)", updates[0].Progress)
	}
	// A second call continues the numbering.
	h.hold = nil
	res2, _ := execute(t, context.Background(), tl, map[string]any{"agent": "explore", "tasks": tasks("D")})
	if id := res2.Details.(*Details).Results[0].ID; id != "3-D" {
		t.Errorf("second call id %s", id)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, map[string]any{"task.maxConcurrency": 1})
	res, updates := execute(t, context.Background(), bind(t, h, ""), map[string]any{"agent": "implement", "tasks": tasks("A", "B", "C")})
	if h.peak != 1 || res.IsError {
		t.Fatalf("peak %d, result %s", h.peak, res.FirstText())
	}
	sawQueue := false
	for _, u := range updates {
		if u.Progress[0].Status == StatusRunning && u.Progress[1].Status == StatusPending && u.Progress[2].Status == StatusPending {
			sawQueue = true
		}
	}
	if !sawQueue {
		t.Error("no update showed one task running and the others pending")
	}
}

func TestAbortCancelsChildren(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, map[string]any{"task.maxConcurrency": 1})
	h.hold = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *tool.Result)
	go func() {
		res, _ := execute(t, ctx, bind(t, h, ""), map[string]any{"agent": "explore", "tasks": tasks("A", "B")})
		done <- res
	}()
	waitStarted(t, h, 1)
	cancel()
	var res *tool.Result
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not end after the abort")
	}
	d := res.Details.(*Details)
	if !res.IsError || d.Results[0].Status != StatusAborted || !d.Results[0].Aborted || d.Results[1].Status != StatusAborted || d.Results[1].Error != "Cancelled before start" {
		t.Fatalf("after abort: %s\n%+v", res.FirstText(), d.Results)
	}
	if len(h.specs) != 1 {
		t.Errorf("%d children started, want 1", len(h.specs))
	}
}

func TestOutputCapAndFullText(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, nil, config.EnvTaskMaxOutputLines+"=2")
	long := "line 1\nline 2\nline 3\nline 4\nline 5"
	h.answer = func(string) (string, error) { return long, nil }
	dir := artifactsDir(t)
	res, _ := execute(t, context.Background(), bind(t, h, dir), map[string]any{"agent": "explore", "tasks": tasks("A")})
	r := res.Details.(*Details).Results[0]
	if r.Output != "line 4\nline 5" || !r.Truncated || r.OutputMeta.LineCount != 5 {
		t.Fatalf("capped result: %+v", r)
	}
	full, err := artifact.NewStore(dir).ReadAgentOutput("agent://0-A")
	if err != nil || full != long {
		t.Fatalf("whole text: %q %v", full, err)
	}
	if !strings.Contains(res.FirstText(), "[Answer cut: 5 lines in all; read agent://0-A for the whole text]") {
		t.Errorf("text: %s", res.FirstText())
	}
}

func TestLongAnswerPreview(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, nil)
	long := strings.Repeat(strings.Repeat("x", 99)+"\n", 80)
	h.answer = func(string) (string, error) { return long, nil }
	res, _ := execute(t, context.Background(), bind(t, h, ""), map[string]any{"agent": "explore", "tasks": tasks("A")})
	text := res.FirstText()
	if strings.Count(text, strings.Repeat("x", 99)) != 50 || !strings.Contains(text, "the whole text is not kept, as this session has no file") {
		t.Errorf("preview:\n%s", text)
	}
	if r := res.Details.(*Details).Results[0]; r.Output != strings.TrimSpace(long) || r.Truncated || r.OutputPath != "" {
		t.Errorf("details: truncated %v, path %q", r.Truncated, r.OutputPath)
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, nil)
	h.answer = func(a string) (string, error) {
		switch a {
		case "do A":
			return "", errors.New("overloaded")
		case "do B":
			return "  ", nil
		}
		return "fine", nil
	}
	res, _ := execute(t, context.Background(), bind(t, h, ""), map[string]any{"agent": "explore", "tasks": tasks("A", "B", "C")})
	d := res.Details.(*Details)
	if d.Results[0].Status != StatusFailed || d.Results[0].Error != "The subagent's model call failed: overloaded" {
		t.Errorf("A: %+v", d.Results[0])
	}
	if d.Results[1].Status != StatusFailed || d.Results[1].Error != "The subagent ended without a final answer" {
		t.Errorf("B: %+v", d.Results[1])
	}
	if res.IsError || !strings.HasPrefix(res.FirstText(), "1 of 3 explore tasks completed, 2 failed") {
		t.Errorf("text: %s", res.FirstText())
	}
	h.startErr = errors.New("no model is available")
	res, _ = execute(t, context.Background(), bind(t, h, ""), map[string]any{"agent": "explore", "tasks": tasks("D")})
	if r := res.Details.(*Details).Results[0]; !res.IsError || r.Status != StatusFailed || r.Error != "no model is available" {
		t.Errorf("start error: %+v", r)
	}
}

func TestCallErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		settings map[string]any
		pos      Position
		args     map[string]any
		want     string
	}{
		{"unknown agent", nil, TopLevel, map[string]any{"agent": "nope", "tasks": tasks("A")},
			`Unknown agent "nope". Available: explore, implement, plan`},
		{"disabled", map[string]any{"task.disabledAgents": []any{"plan"}}, TopLevel, map[string]any{"agent": "plan", "tasks": tasks("A")},
			`Agent "plan" is disabled in settings (task.disabledAgents); use a different agent. Available: explore, implement`},
		{"not allowed", nil, Position{Depth: 1, ID: "0-P", Spawns: []string{"explore"}}, map[string]any{"agent": "plan", "tasks": tasks("A")},
			"Cannot spawn 'plan'. Allowed: explore"},
		{"too deep", nil, Position{Depth: 2, ID: "0-P.0-Q", Spawns: []string{"*"}}, map[string]any{"agent": "explore", "tasks": tasks("A")},
			"Cannot spawn 'explore': subagents may nest only 2 levels deep (task.maxRecursionDepth). Do the work yourself."},
		{"no spawns", nil, Position{Depth: 1, ID: "0-P"}, map[string]any{"agent": "explore", "tasks": tasks("A")},
			"Cannot spawn 'explore'. Allowed: none (spawns disabled for this agent)"},
		{"bad ids", nil, TopLevel, map[string]any{"agent": "explore", "tasks": []map[string]string{
			{"id": "a b", "description": "", "assignment": "x"}, {"id": "Dup", "description": "", "assignment": "x"},
			{"id": "dup", "description": "", "assignment": " "}}},
			`Invalid tasks: task id "a b" may only hold letters, digits, _ and - (at most 48); tasks 1 and 2 have the same id "dup" (ids are compared ignoring case); task "dup" has an empty assignment.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newFakeHost(t, c.settings)
			h.pos = c.pos
			res, _ := execute(t, context.Background(), bind(t, h, ""), c.args)
			if !res.IsError || res.FirstText() != c.want {
				t.Errorf("got %q\nwant %q", res.FirstText(), c.want)
			}
			if len(h.specs) != 0 {
				t.Error("a child was started")
			}
		})
	}
}

func TestChildSpec(t *testing.T) {
	t.Parallel()
	cases := []struct {
		agent    string
		settings map[string]any
		tools    []string
		ignored  []string
		models   []string
		thinking ai.ThinkingLevel
		spawns   []string
	}{
		{"explore", nil, []string{"read", "search", "find", "ast_grep"}, nil, []string{"pi/smol"}, ai.ThinkingLow, nil},
		{"plan", nil, []string{"read", "search", "find", "ast_grep", "task"}, []string{"bash"}, []string{"pi/slow"}, ai.ThinkingHigh, []string{"explore"}},
		{"plan", map[string]any{"task.maxRecursionDepth": 1}, []string{"read", "search", "find", "ast_grep"}, []string{"bash"}, []string{"pi/slow"}, ai.ThinkingHigh, []string{"explore"}},
		{"implement", map[string]any{"task.agentModelOverrides": map[string]any{"implement": "mock/a:low, pi/slow"}}, nil, nil, []string{"mock/a:low", "pi/slow"}, "", []string{"*"}},
	}
	for _, c := range cases {
		h := newFakeHost(t, c.settings)
		dir := artifactsDir(t)
		res, _ := execute(t, context.Background(), bind(t, h, dir), map[string]any{"agent": c.agent, "context": "SHARED-BACKGROUND", "tasks": tasks("A")})
		if res.IsError || len(h.specs) != 1 {
			t.Fatalf("%s: %s", c.agent, res.FirstText())
		}
		s := h.specs[0]
		if !reflect.DeepEqual(s.Tools, c.tools) || !reflect.DeepEqual(s.Models, c.models) || s.Thinking != c.thinking {
			t.Errorf("%s %v: tools %q models %q thinking %q", c.agent, c.settings, s.Tools, s.Models, s.Thinking)
		}
		if got := res.Details.(*Details).Results[0].Ignored; !reflect.DeepEqual(got, c.ignored) {
			t.Errorf("%s: ignored %q", c.agent, got)
		}
		if s.Position.Depth != 1 || s.Position.ID != "0-A" || !reflect.DeepEqual(s.Position.Spawns, c.spawns) {
			t.Errorf("%s: position %+v", c.agent, s.Position)
		}
		if s.SessionFile != dir+"/0-A.jsonl" || s.Artifacts == nil || s.Artifacts.Dir() != dir {
			t.Errorf("%s: session %q", c.agent, s.SessionFile)
		}
		if !strings.HasPrefix(s.SystemPrompt, "# Working as a subagent") || !strings.HasSuffix(s.SystemPrompt, "# Background from the caller\nSHARED-BACKGROUND") {
			t.Errorf("%s: system prompt %q", c.agent, s.SystemPrompt)
		}
	}
}

func TestAvailable(t *testing.T) {
	t.Parallel()
	if Available(nil) {
		t.Error("available without a host")
	}
	for _, c := range []struct {
		settings map[string]any
		pos      Position
		want     bool
	}{
		{nil, TopLevel, true},
		{map[string]any{"task.maxRecursionDepth": 0}, TopLevel, true},
		{nil, Position{Depth: 1, Spawns: []string{"*"}}, true},
		{nil, Position{Depth: 2, Spawns: []string{"*"}}, false},
		{nil, Position{Depth: 1}, false},
		{map[string]any{"task.maxRecursionDepth": -1}, Position{Depth: 9, Spawns: []string{"explore"}}, true},
	} {
		h := newFakeHost(t, c.settings)
		h.pos = c.pos
		if got := Available(h); got != c.want {
			t.Errorf("%v %+v: available %v", c.settings, c.pos, got)
		}
	}
}

func TestDescriptionListsOfferedAgents(t *testing.T) {
	t.Parallel()
	h := newFakeHost(t, map[string]any{"task.disabledAgents": []any{"plan"}, "task.maxConcurrency": 4})
	desc := bind(t, h, "").Definition().Description
	if !strings.Contains(desc, "at most 4 at a time") || !strings.Contains(desc, "\n- explore: Read-only scout.") ||
		!strings.Contains(desc, "\n- implement: ") || strings.Contains(desc, "- plan:") {
		t.Errorf("description:\n%s", desc)
	}
	h = newFakeHost(t, nil)
	h.pos = Position{Depth: 1, Spawns: []string{"explore"}}
	if desc := bind(t, h, "").Definition().Description; strings.Contains(desc, "- implement:") || !strings.Contains(desc, "- explore:") {
		t.Errorf("restricted description:\n%s", desc)
	}
}
