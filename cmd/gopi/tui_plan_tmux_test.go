package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Plan mode in the interactive mode on a real terminal: /plan switches to
// the plan model; its write outside the plan file is refused; it writes
// the plan and calls exit_plan_mode; the plan is shown for review, edited
// in $EDITOR with ctrl+g, and approved; the execution goes to the default
// model in a fresh session with every tool and the edited plan.
func TestTUIPlanModeInTmux(t *testing.T) {
	plan := "# Greeting plan\n\n1. Make Hello say hi!\n"
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{
			mockllm.ToolCall("write", `{"path":"greet.go","content":"package greet\n"}`),
			mockllm.ToolCall("write", fmt.Sprintf(`{"path":"local://PLAN.md","content":%q}`, plan)),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("exit_plan_mode", `{"title":"GREETING"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Executing the approved plan.")}},
	)
	r.Write("greet.go", "package greet\n\nfunc Hello() string { return \"hi\" }\n")
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n      - id: mock-plan\n", r.Srv.URL())
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "modelRoles:\n  default: mock/mock-model\n  plan: mock/mock-plan\nedit:\n  mode: replace\n"
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// The "editor" changes the plan in place.
	env := append(append([]string(nil), r.Environ...), "EDITOR=sed -i s/hi!/hello!/")
	x := startTmux(t, 110, 40, r.Project, env, "--no-title")
	x.waitFor("Message gopi", "mock/mock-model")

	x.typ("/plan")
	x.keys("Enter")
	x.waitFor("Plan mode enabled. Plan file: local://PLAN.md", "mock/mock-plan", "plan mode")

	x.typ("plan a better greeting")
	x.keys("Enter")
	x.waitFor("Plan mode: only the plan file may be modified (local://PLAN.md).", "Plan Review", "Make Hello say hi!",
		"Plan mode - next step", "Approve and execute", "Approve and keep context", "Refine plan", "Stay in plan mode", "ctrl+g open in editor")

	x.keys("C-g")
	x.waitFor("Make Hello say hello!")
	x.keys("Enter")
	x.waitFor("plan approved: executing local://GREETING.md", "Executing the approved plan.")

	reqs := r.Srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	var body struct {
		Model string `json:"model"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	for i, q := range reqs {
		body.Tools = nil
		if err := json.Unmarshal(q.Body, &body); err != nil {
			t.Fatal(err)
		}
		want := "mock-plan"
		if i == 2 {
			want = "mock-model"
		}
		if body.Model != want {
			t.Fatalf("request %d went to %s, want %s", i, body.Model, want)
		}
	}
	var tools []string
	for _, tl := range body.Tools {
		tools = append(tools, tl.Name)
	}
	for _, want := range []string{"read", "write", "edit", "bash"} {
		if !slices.Contains(tools, want) {
			t.Fatalf("the execution lacks %s: %v", want, tools)
		}
	}
	last := string(reqs[2].Body)
	if !strings.Contains(last, "Make Hello say hello!") || !strings.Contains(last, "local://GREETING.md") || strings.Contains(last, "plan a better greeting") {
		t.Fatalf("the execution request does not start afresh from the edited plan:\n%s", last)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Project, "greet.go")); !strings.Contains(string(b), "func Hello") {
		t.Fatalf("greet.go was changed while planning: %q", b)
	}
	x.keys("C-d")
	x.waitFor("EXITED 0")
}
