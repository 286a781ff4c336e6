package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// taskRig is a session whose provider is a mockllm server: the parent and
// its subagents all call it (subagent turns are routed with Match). The
// settings give the smol role its own model, so requests of explore
// subagents can be told apart.
type taskRig struct {
	t   *testing.T
	f   *fixture
	srv *mockllm.Server
	s   *Session

	mu      sync.Mutex
	updates []*task.Details // progress of task calls
	ends    []agent.ToolExecutionEnd
}

func newTaskRig(t *testing.T, settings string, environ ...string) *taskRig {
	t.Helper()
	return newTaskRigWith(t, Options{}, settings, environ...)
}

// newTaskRigWith is newTaskRig with more session options.
func newTaskRigWith(t *testing.T, opts Options, settings string, environ ...string) *taskRig {
	t.Helper()
	srv := mockllm.New(t)
	f := newFixture(t, append([]string{"MOCK_KEY=test", "PI_NO_TITLE=1"}, environ...)...)
	agentDir := filepath.Join(f.home, ".gopi", "agent")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n      - id: mock-small\n      - id: mock-think\n        reasoning: true\n", srv.URL())
	if err := os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agentDir, "config.yml"), []byte("modelRoles:\n  smol: mock/mock-small\n"+settings), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &taskRig{t: t, f: f, srv: srv}
	cfg := f.config()
	reg := f.registry(cfg)
	opts.Config, opts.Models, opts.Model = cfg, reg, f.model(reg, "mock/mock-model")
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r.s = s
	s.Subscribe(func(ev agent.Event) {
		r.mu.Lock()
		defer r.mu.Unlock()
		switch e := ev.(type) {
		case agent.ToolExecutionUpdate:
			if d, ok := e.PartialResult.Details.(*task.Details); ok {
				c := *d
				c.Progress = slices.Clone(d.Progress)
				r.updates = append(r.updates, &c)
			}
		case agent.ToolExecutionEnd:
			r.ends = append(r.ends, e)
		}
	})
	return r
}

// call is a scripted tool call.
func call(name string, args any) mockllm.Block {
	b, _ := json.Marshal(args)
	return mockllm.ToolCall(name, string(b))
}

func say2(text string) mockllm.Turn { return mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(text)}} }

// end returns the result of the first call of the named tool.
func (r *taskRig) end(name string) agent.ToolExecutionEnd {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.ends {
		if e.ToolName == name {
			return e
		}
	}
	r.t.Fatalf("no %s call ended", name)
	return agent.ToolExecutionEnd{}
}

// reqInfo is what a test looks at in a provider request.
type reqInfo struct {
	model, system string
	tools         []string
}

func (r *taskRig) request(match string) reqInfo {
	r.t.Helper()
	for _, q := range r.srv.Requests() {
		if !strings.Contains(string(q.Body), match) {
			continue
		}
		var body struct {
			Model  string                       `json:"model"`
			System []struct{ Text string }      `json:"system"`
			Tools  []struct{ Name string }      `json:"tools"`
			Msgs   []map[string]json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(q.Body, &body); err != nil {
			r.t.Fatal(err)
		}
		info := reqInfo{model: body.Model}
		for _, s := range body.System {
			info.system += s.Text
		}
		for _, tl := range body.Tools {
			info.tools = append(info.tools, tl.Name)
		}
		return info
	}
	r.t.Fatalf("no request contains %q", match)
	return reqInfo{}
}

// header reads a session file's header.
func header(t *testing.T, path string) session.Header {
	t.Helper()
	m, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	return m.Header()
}

func TestTaskSubagentsRunInParallel(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "", "PI_TASK_MAX_OUTPUT_LINES=3")
	alpha := "alpha 1\nalpha 2\nalpha 3\nalpha 4\nalpha 5\nalpha 6"
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "explore", "context": "CTX-SHARED-7", "tasks": []map[string]string{
			{"id": "Alpha", "description": "first", "assignment": "ASSIGN-ALPHA: look at a"},
			{"id": "Beta", "description": "second", "assignment": "ASSIGN-BETA: look at b"},
		}})}},
		// Alpha answers slowly: Beta is done while Alpha still runs.
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(alpha)}, Match: "ASSIGN-ALPHA", ChunkSize: 2, ChunkDelay: 15 * time.Millisecond},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("beta done")}, Match: "ASSIGN-BETA"},
		mockllm.Turn{Blocks: []mockllm.Block{call("read", map[string]string{"path": "agent://0-Alpha"})}},
		say2("All done."),
	)
	if err := r.s.Prompt(context.Background(), "split the work", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if r.s.LastAssistantText() != "All done." {
		t.Fatalf("last answer %q", r.s.LastAssistantText())
	}

	// The subagents ran at the same time.
	overlap := false
	for _, u := range r.updates {
		overlap = overlap || u.Progress[0].Status == task.StatusRunning && u.Progress[1].Status == task.StatusCompleted
	}
	if !overlap {
		t.Error("no progress update showed Alpha running after Beta completed")
	}

	// Explore subagents use the smol role's model, the explore tools and
	// the shared context; the parent keeps its model and has the task tool.
	child, parent := r.request("ASSIGN-BETA"), r.request("split the work")
	if child.model != "mock-small" || parent.model != "mock-model" {
		t.Errorf("models: child %s, parent %s", child.model, parent.model)
	}
	if !slices.Equal(child.tools, []string{"read", "search", "find", "ast_grep"}) || !slices.Contains(parent.tools, "task") {
		t.Errorf("tools: child %v, parent %v", child.tools, parent.tools)
	}
	if !strings.Contains(child.system, "CTX-SHARED-7") || !strings.Contains(child.system, "# Working as a subagent") {
		t.Errorf("child system prompt:\n%s", child.system)
	}

	// The result names each child's session file, linked to the parent's.
	end := r.end("task")
	d := end.Result.Details.(*task.Details)
	parentFile := r.s.SessionFile()
	artifacts := strings.TrimSuffix(parentFile, ".jsonl")
	for i, id := range []string{"0-Alpha", "1-Beta"} {
		res := d.Results[i]
		if res.Status != task.StatusCompleted || res.SessionFile != filepath.Join(artifacts, id+".jsonl") || res.Model != "mock/mock-small" {
			t.Errorf("result %s: %+v", id, res)
			continue
		}
		if h := header(t, res.SessionFile); h.ParentSession != parentFile {
			t.Errorf("%s: parentSession %q, want %q", id, h.ParentSession, parentFile)
		}
		if got := entryTypes(t, res.SessionFile); !slices.Contains(got, "message:user") || !slices.Contains(got, "message:assistant") {
			t.Errorf("%s session entries %v", id, got)
		}
		if raw, _ := os.ReadFile(res.SessionFile); !strings.Contains(string(raw), `"attribution":"agent"`) {
			t.Errorf("%s: the assignment is not attributed to the agent", id)
		}
	}
	// Alpha's answer is capped at 3 lines; the read tool gives all of it.
	if a := d.Results[0]; a.Output != "alpha 4\nalpha 5\nalpha 6" || !a.Truncated || a.OutputMeta.LineCount != 6 {
		t.Errorf("capped output: %+v", a)
	}
	if !strings.Contains(end.Result.FirstText(), "read agent://0-Alpha for the whole text") {
		t.Errorf("task result text:\n%s", end.Result.FirstText())
	}
	if read := r.end("read"); read.IsError || !strings.Contains(read.Result.FirstText(), "alpha 1") || !strings.Contains(read.Result.FirstText(), "alpha 6") {
		t.Errorf("agent:// read: %s", read.Result.FirstText())
	}

	// The parent's session file keeps the child session files in the
	// task result's details.
	raw, err := os.ReadFile(parentFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"0-Alpha", "1-Beta"} {
		if !strings.Contains(string(raw), `"sessionFile":"`+filepath.Join(artifacts, id+".jsonl")+`"`) {
			t.Errorf("parent session does not name %s's session file", id)
		}
	}
}

func TestTaskAbortCancelsChildren(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "")
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "One", "description": "1", "assignment": "ASSIGN-ONE"},
			{"id": "Two", "description": "2", "assignment": "ASSIGN-TWO"},
		}})}},
		// Both subagents stall until they are cancelled.
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never finished")}, Match: "ASSIGN-ONE", StallAfter: 3},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never finished")}, Match: "ASSIGN-TWO", StallAfter: 3},
	)
	done := make(chan error, 1)
	go func() { done <- r.s.Prompt(context.Background(), "go", PromptOptions{}) }()
	testwait.Until(t, "the subagents to call the model", func() bool { return len(r.srv.Requests()) >= 3 })
	r.s.Abort()
	testwait.Recv(t, "the abort to stop the task call", done)
	d := r.end("task").Result.Details.(*task.Details)
	for _, res := range d.Results {
		if res.Status != task.StatusAborted || !res.Aborted {
			t.Errorf("%s: %+v", res.ID, res.Progress)
		}
		if res.SessionFile == "" {
			t.Errorf("%s has no session file", res.ID)
		}
	}
}

func TestTaskNestingAndDepthLimit(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "")
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Outer", "description": "o", "assignment": "ASSIGN-OUTER"}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Inner", "description": "i", "assignment": "ASSIGN-INNER"}}})}, Match: "ASSIGN-OUTER"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("inner result")}, Match: "ASSIGN-INNER"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("outer result")}, Match: "ASSIGN-OUTER"},
		say2("done"),
	)
	if err := r.s.Prompt(context.Background(), "nest", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if r.s.LastAssistantText() != "done" {
		t.Fatalf("last answer %q", r.s.LastAssistantText())
	}
	// Depth 1 may start subagents (task.maxRecursionDepth 2), depth 2 not.
	outer := r.request("ASSIGN-OUTER")
	inner := r.request("ASSIGN-INNER")
	if !slices.Contains(outer.tools, "task") || slices.Contains(inner.tools, "task") {
		t.Errorf("tools: depth 1 %v, depth 2 %v", outer.tools, inner.tools)
	}
	artifacts := strings.TrimSuffix(r.s.SessionFile(), ".jsonl")
	outerFile, innerFile := filepath.Join(artifacts, "0-Outer.jsonl"), filepath.Join(artifacts, "0-Outer.0-Inner.jsonl")
	if h := header(t, innerFile); h.ParentSession != outerFile {
		t.Errorf("inner parentSession %q, want %q", h.ParentSession, outerFile)
	}
	if out, err := r.s.Tools().Env().Artifacts.ReadAgentOutput("agent://0-Outer.0-Inner"); err != nil || out != "inner result" {
		t.Errorf("nested output %q %v", out, err)
	}
	if d := r.end("task").Result.Details.(*task.Details); d.Results[0].Output != "outer result" {
		t.Errorf("outer: %+v", d.Results[0])
	}
}

func TestTaskDepthLimitSetting(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "task:\n  maxRecursionDepth: 1\n")
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Only", "description": "o", "assignment": "ASSIGN-ONLY"}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("did it")}, Match: "ASSIGN-ONLY"},
		say2("done"),
	)
	if err := r.s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if tools := r.request("ASSIGN-ONLY").tools; slices.Contains(tools, "task") || !slices.Contains(tools, "edit") {
		t.Errorf("depth-1 tools with maxRecursionDepth 1: %v", tools)
	}
}

func TestTaskUnknownAgent(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "")
	dir := filepath.Join(r.f.project, ".gopi", "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "review.md"), []byte("---\nname: review\ndescription: Reviews a diff\ntools: read\n---\nReview.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The definitions are read when the tools are built.
	if err := r.s.Tools().SetExtra(nil); err != nil {
		t.Fatal(err)
	}
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "nope", "tasks": []map[string]string{
			{"id": "X", "description": "x", "assignment": "x"}}})}},
		say2("ok"),
	)
	if err := r.s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	end := r.end("task")
	if want := `Unknown agent "nope". Available: review, explore, implement, plan`; !end.IsError || end.Result.FirstText() != want {
		t.Errorf("got %q, want %q", end.Result.FirstText(), want)
	}
	if reqs := r.srv.Requests(); len(reqs) != 2 {
		t.Errorf("%d requests: a subagent was started", len(reqs))
	}
}

// Without a session file the subagents run in memory: the task works, and
// the whole answer is not kept.
func TestTaskWithoutSessionFile(t *testing.T) {
	t.Parallel()
	r := newTaskRigWith(t, Options{NoSession: true}, "", "PI_TASK_MAX_OUTPUT_LINES=1")
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "explore", "tasks": []map[string]string{
			{"id": "Mem", "description": "m", "assignment": "ASSIGN-MEM"}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("first\nsecond")}, Match: "ASSIGN-MEM"},
		mockllm.Turn{Blocks: []mockllm.Block{call("read", map[string]string{"path": "agent://0-Mem"})}},
		say2("done"),
	)
	if err := r.s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	end := r.end("task")
	res := end.Result.Details.(*task.Details).Results[0]
	if res.Status != task.StatusCompleted || res.SessionFile != "" || res.OutputPath != "" || res.Output != "second" {
		t.Errorf("in-memory task: %+v", res)
	}
	if !strings.Contains(end.Result.FirstText(), "the whole text is not kept, as this session has no file") {
		t.Errorf("text:\n%s", end.Result.FirstText())
	}
	if read := r.end("read"); !read.IsError || read.Result.FirstText() != "No session - agent outputs unavailable" {
		t.Errorf("agent:// without a session: %q", read.Result.FirstText())
	}
}

// childModel resolves model roles through modelRoles, falls back to the
// parent's model, and takes the thinking level from the pattern, else the
// agent, else the parent.
func TestChildModel(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "  slow: mock/mock-think:high\n  plan: nowhere/none\n")
	if err := r.s.Model().Set(r.f.model(r.s.Model().Registry(), "mock/mock-think")); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Model().SetThinking(ai.ThinkingMinimal); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		patterns []string
		thinking ai.ThinkingLevel
		model    string
		level    ai.ThinkingLevel
	}{
		{nil, "", "mock/mock-think", ai.ThinkingMinimal},
		{[]string{"pi/slow"}, "", "mock/mock-think", ai.ThinkingHigh},
		{[]string{"pi/slow:low"}, ai.ThinkingMedium, "mock/mock-think", ai.ThinkingLow},
		{[]string{"mock/mock-think"}, ai.ThinkingMedium, "mock/mock-think", ai.ThinkingMedium},
		{[]string{"mock/mock-think"}, "", "mock/mock-think", ai.ThinkingMinimal},
		{[]string{"pi/plan", "pi/vision", "pi/smol"}, "", "mock/mock-small", ai.ThinkingOff},
		{[]string{"pi/default"}, ai.ThinkingHigh, "mock/mock-think", ai.ThinkingHigh},
		{[]string{"no-such-model-anywhere-xyz"}, "", "mock/mock-think", ai.ThinkingMinimal},
	} {
		m, level := r.s.childModel(c.patterns, c.thinking)
		if got := m.Provider + "/" + m.ID; got != c.model || level != c.level {
			t.Errorf("%v %q: %s %q, want %s %q", c.patterns, c.thinking, got, level, c.model, c.level)
		}
	}
}

// Subagents use their parent's language servers: one manager (one server
// per root) for the whole tree, which the children's Close leaves running.
func TestChildrenShareLanguageServers(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "")
	parent := r.s.svc.LSP
	if parent == nil || r.s.toolEnv.Diagnostics == nil {
		t.Fatal("the session has no language servers")
	}
	for range 8 {
		child, err := r.s.NewChild(context.Background(), ChildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if child.svc.LSP != parent || child.toolEnv.Diagnostics != tool.Diagnoser(parent) {
			t.Fatal("a child has language servers of its own")
		}
		child.Close()
	}
	if _, _, err := parent.Client(context.Background(), &lsp.Server{Name: "x", Command: "/nonexistent/x"}); errors.Is(err, lsp.ErrClosed) {
		t.Fatal("a child's Close stopped the parent's servers")
	}
}

// Subagents use the task runners their parent found (found once for the
// tree), and the inspect_image host of their own session.
func TestChildrenShareRecipes(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "")
	child, err := r.s.NewChild(context.Background(), ChildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer child.Close()
	if child.svc.Recipes == nil || child.svc.Recipes != r.s.svc.Recipes {
		t.Fatal("a child found the task runners again")
	}
	if h, ok := child.svc.Vision.(visionHost); !ok || h.s != child {
		t.Fatalf("a child's inspect_image host is %T", child.svc.Vision)
	}
}
