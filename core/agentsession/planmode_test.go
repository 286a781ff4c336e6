package agentsession

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// planUI answers the plan review with scripted choices and records the
// questions.
type planUI struct {
	tool.UI
	mu      sync.Mutex
	choices []string
	inputs  []string
	asked   []string
}

func (u *planUI) Select(_ context.Context, title string, options []string, timeout time.Duration) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, title+": "+strings.Join(options, " | "))
	if timeout != 0 {
		return "", tool.ErrDialogTimedOut
	}
	if len(u.choices) == 0 {
		return "", tool.ErrDialogCancelled
	}
	c := u.choices[0]
	u.choices = u.choices[1:]
	return c, nil
}

func (u *planUI) Input(_ context.Context, title, _ string, _ time.Duration) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, title)
	if len(u.inputs) == 0 {
		return "", tool.ErrDialogCancelled
	}
	in := u.inputs[0]
	u.inputs = u.inputs[1:]
	return in, nil
}

func (u *planUI) Notify(string, string)      {}
func (u *planUI) SetStatus(string, string)   {}
func (u *planUI) SetWidget(string, []string) {}
func (u *planUI) SetTitle(string)            {}
func (u *planUI) SetEditorText(string)       {}

// planRig is a session on the mock LLM whose plan role is mock-think.
func planRig(t *testing.T, ui *planUI) *taskRig {
	t.Helper()
	r := newTaskRig(t, "  plan: mock/mock-think\n")
	if err := r.s.Tools().SetUI(ui); err != nil {
		t.Fatal(err)
	}
	return r
}

// The whole of plan mode through the mock LLM: the plan model reads and
// writes the plan and calls exit_plan_mode; the user approves; the next
// request goes to the default model in a new session, with every tool and
// the plan.
func TestPlanModeApproveAndExecute(t *testing.T) {
	t.Parallel()
	ui := &planUI{choices: []string{PlanApprove}}
	r := planRig(t, ui)
	if err := os.WriteFile(filepath.Join(r.f.project, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := "# Plan\n\n1. Add a greeting to main.go.\n"
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("read", map[string]any{"path": "main.go"}), call("write", map[string]any{"path": "main.go", "content": "oops"})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("write", map[string]any{"path": "local://PLAN.md", "content": plan})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("exit_plan_mode", map[string]any{"title": "GREETING_PLAN"})}},
		say2("executing"),
	)
	first := r.s.Store().File()
	warn, err := r.s.Plan().Enter()
	if err != nil || warn != "" {
		t.Fatalf("enter: %q %v", warn, err)
	}
	if st := r.s.Plan().State(); !st.Enabled || st.PlanFilePath != "local://PLAN.md" {
		t.Fatalf("state %+v", st)
	}
	if err := r.s.Prompt(context.Background(), "plan a greeting", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	// The write outside the plan file was refused with omp's text.
	var refused string
	r.mu.Lock()
	for _, e := range r.ends {
		if e.ToolName == "write" && e.IsError {
			refused = e.Result.Content[0].(*tool.TextContent).Text
		}
	}
	r.mu.Unlock()
	if refused != "Plan mode: only the plan file may be modified (local://PLAN.md)." {
		t.Fatalf("write outside the plan: %q", refused)
	}
	if b, _ := os.ReadFile(filepath.Join(r.f.project, "main.go")); string(b) != "package main\n" {
		t.Fatalf("main.go changed: %q", b)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (three planning, one executing)", len(reqs))
	}
	for i, q := range reqs[:3] {
		var body struct {
			Model string                  `json:"model"`
			Tools []struct{ Name string } `json:"tools"`
		}
		_ = json.Unmarshal(q.Body, &body)
		if body.Model != "mock-think" {
			t.Fatalf("planning request %d went to %s", i, body.Model)
		}
		if !slices.ContainsFunc(body.Tools, func(x struct{ Name string }) bool { return x.Name == "exit_plan_mode" }) {
			t.Fatalf("planning request %d does not offer exit_plan_mode", i)
		}
		if !strings.Contains(string(q.Body), "You are in plan mode") {
			t.Fatalf("planning request %d lacks the plan mode instructions", i)
		}
	}
	exec := r.request("The plan is approved")
	if exec.model != "mock-model" {
		t.Fatalf("execution went to %s", exec.model)
	}
	for _, want := range []string{"read", "write", "edit", "bash"} {
		if !slices.Contains(exec.tools, want) {
			t.Fatalf("execution request lacks %s: %v", want, exec.tools)
		}
	}
	body := string(reqs[3].Body)
	if !strings.Contains(body, "Add a greeting to main.go.") || !strings.Contains(body, "local://GREETING_PLAN.md") {
		t.Fatalf("execution request lacks the plan: %s", body)
	}
	if strings.Contains(body, "plan a greeting") || strings.Contains(body, "You are in plan mode") {
		t.Fatal("the execution did not start from a fresh context")
	}
	if got := ui.asked; len(got) != 1 || got[0] != "Plan mode - next step: Approve and execute | Approve and keep context | Refine plan | Stay in plan mode" {
		t.Fatalf("asked %q", got)
	}
	// Plan mode is over; the approved plan is in the new session's
	// scratch directory, and the old session recorded the modes.
	if st := r.s.Plan().State(); st.Enabled || st.Paused {
		t.Fatalf("state after approval %+v", st)
	}
	if r.s.Store().File() == first {
		t.Fatal("approve and execute kept the session")
	}
	if b, err := os.ReadFile(r.s.Tools().Env().Resolve("local://GREETING_PLAN.md")); err != nil || string(b) != plan {
		t.Fatalf("approved plan in the new session: %q %v", b, err)
	}
	old, err := session.Open(first, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	var modes []string
	for _, e := range old.Entries() {
		if e.ModeChange != nil {
			modes = append(modes, e.ModeChange.Mode+string(e.ModeChange.Data))
		}
	}
	if want := []string{`plan{"planFilePath":"local://PLAN.md"}`, "none"}; !slices.Equal(modes, want) {
		t.Fatalf("mode changes %q, want %q", modes, want)
	}
	if _, err := os.Stat(strings.TrimSuffix(first, ".jsonl") + "/local/GREETING_PLAN.md"); err != nil {
		t.Fatalf("the plan was not renamed to its title: %v", err)
	}
	if last := r.s.LastAssistantText(); last != "executing" {
		t.Fatalf("last answer %q", last)
	}
	if m := r.s.Agent().Model(); m.ID != "mock-model" {
		t.Fatalf("model after approval %s", m.ID)
	}
}

// Keeping the context runs the plan in the same session; refining sends
// the user's words as the next planning prompt; /plan off pauses.
func TestPlanModeRefineThenKeepContext(t *testing.T) {
	t.Parallel()
	ui := &planUI{choices: []string{PlanRefine, PlanApproveKeep}, inputs: []string{"also say goodbye"}}
	r := planRig(t, ui)
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("write", map[string]any{"path": "PLAN.md", "content": "# Plan v1\n"}), call("exit_plan_mode", map[string]any{"title": "P1"})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("write", map[string]any{"path": "PLAN.md", "content": "# Plan v2\n"}), call("exit_plan_mode", map[string]any{"title": "P2"})}},
		say2("done"),
	)
	first := r.s.Store().File()
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Prompt(context.Background(), "plan it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 3 || !strings.Contains(string(reqs[1].Body), "also say goodbye") {
		t.Fatalf("%d requests; the refinement was not sent", len(reqs))
	}
	if r.s.Store().File() != first {
		t.Fatal("keep context started a new session")
	}
	last := string(reqs[2].Body)
	if !strings.Contains(last, "# Plan v2") || !strings.Contains(last, "plan it") {
		t.Fatal("the execution lacks the plan or the earlier conversation")
	}
	if _, err := os.Stat(filepath.Join(project(r), "PLAN.md")); err == nil {
		t.Fatal("PLAN.md was written into the project")
	}
	var synthetic int
	for _, m := range r.s.Messages() {
		if um, ok := m.(*ai.UserMessage); ok && um.Synthetic {
			synthetic++
		}
	}
	if synthetic != 1 {
		t.Fatalf("%d synthetic messages, want the execution order", synthetic)
	}
	// Entering and leaving without a plan: paused, model restored.
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if m := r.s.Agent().Model(); m.ID != "mock-think" {
		t.Fatalf("plan model %s", m.ID)
	}
	if err := r.s.Plan().Exit(true); err != nil {
		t.Fatal(err)
	}
	if st := r.s.Plan().State(); st.Enabled || !st.Paused {
		t.Fatalf("state %+v", st)
	}
	if m := r.s.Agent().Model(); m.ID != "mock-model" {
		t.Fatalf("model after leaving %s", m.ID)
	}
	if mode, _ := r.s.Plan().RecordedMode(); mode != "plan_paused" {
		t.Fatalf("recorded mode %q", mode)
	}
}

func project(r *taskRig) string { return r.f.project }

// plan.enabled off refuses plan mode with omp's text.
func TestPlanModeDisabled(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "plan:\n  enabled: false\n")
	if _, err := r.s.Plan().Enter(); err == nil || err.Error() != "Plan mode is disabled. Enable it in settings (plan.enabled)." {
		t.Fatalf("enter: %v", err)
	}
	for _, tl := range r.s.Tools().Offered() {
		if tl.Definition().Name == "exit_plan_mode" {
			t.Fatal("exit_plan_mode offered with plan.enabled off")
		}
	}
}

// A planning run that ends in plain text is reminded, once, with a
// required tool choice, to ask or hand the plan over.
func TestPlanModeReminder(t *testing.T) {
	t.Parallel()
	ui := &planUI{}
	r := planRig(t, ui)
	r.srv.Script(say2("I think we should refactor."), say2("Still just talking."))
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Prompt(context.Background(), "plan it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the prompt and one reminder", len(reqs))
	}
	if b := string(reqs[0].Body); strings.Contains(b, "tool_choice") {
		t.Fatal("the first request forces a tool")
	}
	b := string(reqs[1].Body)
	if !strings.Contains(b, "ended without the tool call it needs") || !strings.Contains(b, `"tool_choice":{"type":"any"}`) {
		t.Fatalf("the reminder request:\n%s", b)
	}
}

// While planning, subagents only look: the looking tools, no task tool,
// and the plan-mode instructions before their own.
func TestPlanModeSubagentsOnlyLook(t *testing.T) {
	t.Parallel()
	r := planRig(t, &planUI{})
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Scout", "description": "look", "assignment": "ASSIGN-SCOUT: look at the parser"},
		}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("found it")}, Match: "ASSIGN-SCOUT"},
		mockllm.Turn{Blocks: []mockllm.Block{call("ask", map[string]any{"questions": []map[string]any{{"id": "q", "question": "go on?", "options": []map[string]string{{"label": "yes"}}}}})}},
	)
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Prompt(context.Background(), "plan the parser change", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	child := r.request("ASSIGN-SCOUT")
	// lsp joins them where language servers are on.
	if got := slices.DeleteFunc(slices.Clone(child.tools), func(n string) bool { return n == "lsp" }); !slices.Equal(got, []string{"read", "search", "find"}) {
		t.Fatalf("subagent tools while planning: %v", child.tools)
	}
	if !strings.Contains(child.system, "The agent that started you is in plan mode") || !strings.Contains(child.system, "Critical Files for Implementation") {
		t.Fatalf("subagent system prompt:\n%s", child.system)
	}
}

// A plan left in the scratch directory (plan mode paused) comes with the
// next prompt once, as a reference.
func TestPlanModeReference(t *testing.T) {
	t.Parallel()
	ui := &planUI{choices: []string{PlanStay}}
	r := planRig(t, ui)
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("write", map[string]any{"path": "local://PLAN.md", "content": "# Paused plan\nPLAN-BODY-9\n"}),
			call("exit_plan_mode", map[string]any{"title": "LATER"})}},
		say2("first after pausing"),
		say2("second after pausing"),
	)
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Prompt(context.Background(), "plan it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Plan().Exit(true); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"go on", "and more"} {
		if err := r.s.Prompt(context.Background(), q, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	reqs := r.srv.Requests()
	if len(reqs) != 3 || len(ui.asked) != 1 {
		t.Fatalf("%d requests, %d questions", len(reqs), len(ui.asked))
	}
	third, fourth := string(reqs[1].Body), string(reqs[2].Body)
	if !strings.Contains(third, "A plan from earlier") || !strings.Contains(third, "PLAN-BODY-9") || strings.Count(third, "You are in plan mode") != 1 {
		t.Fatal("the first prompt after pausing lacks the plan reference, or is told it plans")
	}
	if strings.Count(fourth, "A plan from earlier") != 1 {
		t.Fatal("the plan reference was sent twice")
	}
}

// A session file whose last mode is "plan" plans again when restored; once
// plan mode was used in the session, Restore leaves it alone.
func TestPlanModeRestore(t *testing.T) {
	t.Parallel()
	r := planRig(t, &planUI{})
	if _, err := r.s.Store().Record(session.ModeSwitch("plan", map[string]string{"planFilePath": PlanFile})); err != nil {
		t.Fatal(err)
	}
	restored, _, err := r.s.Plan().Restore()
	if err != nil || !restored || !r.s.Plan().State().Enabled || r.s.Agent().Model().ID != "mock-think" {
		t.Fatalf("restore: %v %v %+v", restored, err, r.s.Plan().State())
	}
	if err := r.s.Plan().Exit(true); err != nil {
		t.Fatal(err)
	}
	if restored, _, _ := r.s.Plan().Restore(); restored || r.s.Plan().State().Enabled {
		t.Fatal("Restore entered plan mode again after the user left it")
	}
}

// Entering plan mode during a run steers the planning instructions into
// it: the next model call has them, and goes to the plan model.
func TestPlanModeEnterDuringRun(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := planRig(t, &planUI{})
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("working on it")}, Hold: hold},
		mockllm.Turn{Blocks: []mockllm.Block{call("ask", map[string]any{"questions": []map[string]any{{"id": "q", "question": "which?", "options": []map[string]string{{"label": "a"}}}}})}},
	)
	done := make(chan error, 1)
	go func() { done <- r.s.Prompt(context.Background(), "do the thing", PromptOptions{}) }()
	testwait.Until(t, "the first request", func() bool { return len(r.srv.Requests()) > 0 })
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var body struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(reqs[1].Body, &body)
	if body.Model != "mock-think" || !strings.Contains(string(reqs[1].Body), "You are in plan mode") {
		t.Fatalf("the call after entering: model %s", body.Model)
	}
}

// While planning, ast_edit is refused like any write outside the plan.
func TestPlanModeRefusesASTEdit(t *testing.T) {
	t.Parallel()
	r := planRig(t, &planUI{})
	if err := os.WriteFile(filepath.Join(r.f.project, "a.go"), []byte("package a\n\nfunc f() { old() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("ast_edit", map[string]any{"ops": []map[string]string{{"pat": "old()", "out": "new()"}}, "paths": []string{"a.go"}})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("ask", map[string]any{"questions": []map[string]any{{"id": "q", "question": "which?", "options": []map[string]string{{"label": "a"}}}}})}},
	)
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Prompt(context.Background(), "plan", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	e := r.end("ast_edit")
	if !e.IsError || e.Result.Content[0].(*tool.TextContent).Text != "Plan mode: only the plan file may be modified (local://PLAN.md)." {
		t.Fatalf("ast_edit while planning: %+v", e.Result)
	}
}

// An eval JavaScript cell's write() helper is refused in plan mode like
// the write tool: the file is not written and the cell says why.
func TestPlanModeRefusesEvalWriteHelper(t *testing.T) {
	t.Parallel()
	r := planRig(t, &planUI{})
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("eval", map[string]any{"input": "*** Cell js\nawait write('x.txt', 'y')\nawait append('y.txt', 'z')"})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("ask", map[string]any{"questions": []map[string]any{{"id": "q", "question": "which?", "options": []map[string]string{{"label": "a"}}}}})}},
	)
	if _, err := r.s.Plan().Enter(); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Prompt(context.Background(), "plan", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	e := r.end("eval")
	if text := e.Result.Content[0].(*tool.TextContent).Text; !e.IsError || !strings.Contains(text, "Plan mode: only the plan file may be modified") {
		t.Fatalf("write() while planning: %+v", e.Result)
	}
	for _, name := range []string{"x.txt", "y.txt"} {
		if _, err := os.Stat(filepath.Join(r.f.project, name)); err == nil {
			t.Errorf("%s was written in plan mode", name)
		}
	}
}
