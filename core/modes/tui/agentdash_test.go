package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// /agents opens the control centre: project, user and bundled agents
// under their tabs with the selected one's details; Space turns an agent
// off (task.disabledAgents), Enter edits its model override
// (task.agentModelOverrides), Ctrl+R reads the files again; Esc closes
// without printing.
func TestAgentsDashboard(t *testing.T) {
	t.Parallel()
	var agentFile string
	r := newRigFull(t, "", func(o *agentsession.Options, _ *models.Registry) {
		agentFile = filepath.Join(o.Cwd, ".gopi", "agents", "reviewer-x.md")
		write(t, agentFile, "---\nname: reviewer-x\ndescription: Reviews code carefully\nmodel: mock/other-model\ntools: read, grep\n---\nYou review.\n")
	})
	r.typeAndSend("/agents")
	r.until("the centre", func() bool { return strings.Contains(r.view(), "Reviews code carefully") })
	printed := len(r.printed)
	v := r.view()
	for _, want := range []string{"Agent Control Center", "All (4)", "Project (1)", "Bundled (3)", "● reviewer-x [Project]", "● explore [Bundled]",
		"Status: ● Enabled", "Source: Project", "Default pattern: mock/other-model", "Default resolves: mock/other-model", "Override: (none)",
		"Tools: read, grep", "reviewer-x.md"} {
		if !strings.Contains(v, want) {
			t.Errorf("the centre lacks %q:\n%s", want, v)
		}
	}

	r.press("down")
	r.press("space")
	r.until("explore turned off", func() bool { return strings.Contains(r.settingsFile(), "- explore") })
	if got := r.s.Config().Task().DisabledAgents; !slices.Equal(got, []string{"explore"}) {
		t.Errorf("task.disabledAgents %q", got)
	}
	if v := r.view(); !strings.Contains(v, "⦸ explore") || !strings.Contains(v, "⦸ Disabled") {
		t.Errorf("explore not shown off:\n%s", v)
	}

	r.press("enter")
	if v := r.view(); !strings.Contains(v, "Model override: explore") {
		t.Fatalf("Enter does not edit the override:\n%s", v)
	}
	r.key("mock/other-model")
	if v := r.view(); !strings.Contains(v, "Preview effective: mock/other-model") || !strings.Contains(v, "Suggestions:") {
		t.Errorf("the override preview:\n%s", v)
	}
	r.press("enter")
	r.until("the override saved", func() bool { return strings.Contains(r.settingsFile(), "explore: mock/other-model") })
	if got := r.s.Config().Task().AgentModelOverrides; got["explore"] != "mock/other-model" {
		t.Errorf("task.agentModelOverrides %v", got)
	}
	if v := r.view(); !strings.Contains(v, "Updated model override for explore") || !strings.Contains(v, "explore [Bundled] (override)") || !strings.Contains(v, "Effective: mock/other-model") {
		t.Errorf("the override is not shown:\n%s", v)
	}
	r.press("enter")
	r.press("esc") // cancel: the override stays
	r.settle()
	if !strings.Contains(r.settingsFile(), "explore: mock/other-model") {
		t.Errorf("Esc changed the override:\n%s", r.settingsFile())
	}

	r.press("tab")
	if v := r.view(); !strings.Contains(v, "reviewer-x") || strings.Contains(v, "explore") {
		t.Errorf("the Project tab:\n%s", v)
	}
	r.press("tab")
	r.key("pla") // n would start a new agent, as in omp
	if v := r.view(); !strings.Contains(v, "Search: pla") || !strings.Contains(v, "● plan [Bundled]") || strings.Contains(v, "reviewer-x") {
		t.Errorf("the search on the Bundled tab:\n%s", v)
	}
	r.press("esc")

	write(t, filepath.Join(filepath.Dir(agentFile), "second-one.md"), "---\nname: second-one\ndescription: Another agent\n---\nHi.\n")
	r.press("ctrl+r")
	r.until("the reload", func() bool { return strings.Contains(r.view(), "All (5)") })

	fits(t, r, 80, 24)
	fits(t, r, 60, 15)
	r.press("enter")
	fits(t, r, 60, 15)
	r.press("esc")
	r.press("esc")
	closedQuietly(t, r, printed)
}

// Two toggles in a row are written in order: the file ends as the centre
// shows.
func TestAgentsDashboardSavesInOrder(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.typeAndSend("/agents")
	r.until("the centre", func() bool { return strings.Contains(r.view(), "explore [Bundled]") })
	r.press("space")
	r.press("space")
	r.press("space")
	r.settle()
	if got := r.s.Config().Task().DisabledAgents; !slices.Equal(got, []string{"explore"}) {
		t.Errorf("after three toggles task.disabledAgents is %q", got)
	}
}

// N has the current model write a new agent from a description: an
// answer that is not the JSON asked for is reported and R asks again;
// the reviewed definition is saved in the scope Tab chose and listed.
func TestAgentsDashboardCreates(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("I cannot do JSON today.")}},
		mockllm.Turn{Blocks: []mockllm.Block{text(`{"identifier":"first-try","whenToUse":"Use this agent when testing.","systemPrompt":"You test."}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("```json\n" + `{"identifier":"test-runner","whenToUse":"Use this agent when the tests must run.","systemPrompt":"You run the tests and report the failures."}` + "\n```")}},
	)
	r.typeAndSend("/agents")
	r.until("the centre", func() bool { return strings.Contains(r.view(), "explore [Bundled]") })
	printed := len(r.printed)
	r.key("n")
	if v := r.view(); !strings.Contains(v, "Create New Agent") || !strings.Contains(v, "Scope: project") {
		t.Fatalf("N does not open the description:\n%s", v)
	}
	r.key("runs the test suite")
	r.press("tab")
	if v := r.view(); !strings.Contains(v, "Scope: user") {
		t.Errorf("Tab does not switch the scope:\n%s", v)
	}
	r.press("enter")
	r.until("the model's bad answer", func() bool { return strings.Contains(r.view(), "not the JSON object") })
	reqs := r.llm.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, "You design subagents") || !strings.Contains(body, "runs the test suite") || strings.Contains(body, `"tools"`) {
		t.Errorf("the request: %s", body)
	}
	r.press("enter") // ask again
	r.until("the review", func() bool { return strings.Contains(r.view(), "Identifier: first-try") })
	r.key("R")
	r.until("the second review", func() bool { return strings.Contains(r.view(), "Identifier: test-runner") })
	if v := r.view(); !strings.Contains(v, "Identifier: test-runner") || !strings.Contains(v, "You run the tests") {
		t.Errorf("the review:\n%s", v)
	}
	fits(t, r, 60, 15)
	r.update(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.press("enter")
	r.until("the new agent listed", func() bool { return strings.Contains(r.view(), "test-runner [User]") })
	file := filepath.Join(r.s.Config().AgentDir, "agents", "test-runner.md")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := task.ParseAgent(file, b, task.SourceUser); err != nil || a.Description != "Use this agent when the tests must run." {
		t.Errorf("the file %s: %v\n%s", file, err, b)
	}
	if v := r.view(); !strings.Contains(v, "Created agent test-runner") {
		t.Errorf("no notice:\n%s", v)
	}
	r.press("esc")
	closedQuietly(t, r, printed)
}
