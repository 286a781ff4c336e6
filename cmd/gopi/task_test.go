package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A print-mode run in which the model hands two questions to explore
// subagents that run in parallel: each subagent's session file sits in
// the parent's artifacts directory and names the parent's session file as
// its parentSession.
func TestPrintModeTaskSubagents(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("task", map[string]any{"agent": "explore", "tasks": []map[string]string{
			{"id": "Callers", "description": "who calls greet", "assignment": "ASSIGN-CALLERS: list the callers of greet"},
			{"id": "Tests", "description": "tests of greet", "assignment": "ASSIGN-TESTS: list the tests of greet"},
		}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("main.go:3 calls greet")}, Match: "ASSIGN-CALLERS"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("no tests")}, Match: "ASSIGN-TESTS"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("greet is called once and untested.")}},
	)
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "-v", "what uses greet?")
	if code != 0 || stdout != "greet is called once and untested.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files := r.SessionFiles()
	if len(files) != 3 {
		t.Fatalf("session files %v", files)
	}
	var parent string
	for _, f := range files {
		if !strings.HasSuffix(f, "-Callers.jsonl") && !strings.HasSuffix(f, "-Tests.jsonl") {
			parent = f
		}
	}
	for _, id := range []string{"0-Callers", "1-Tests"} {
		child := filepath.Join(strings.TrimSuffix(parent, ".jsonl"), id+".jsonl")
		m, err := session.Open(child, session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if h := m.Header(); h.ParentSession != parent {
			t.Errorf("%s: parentSession %q, want %q", id, h.ParentSession, parent)
		}
		m.Close()
	}
	// The parent's final request carried both answers.
	last := agentrig.MustMarshal(t, r.RequestMessages(3))
	for _, want := range []string{"main.go:3 calls greet", "no tests", `id=\"0-Callers\" status=\"completed\"`} {
		if !strings.Contains(last, want) {
			t.Errorf("the parent's last request lacks %q", want)
		}
	}
	// The session list shows the two subagent sessions under the parent.
	list, _, code := r.run("", "-r")
	if code != 0 {
		t.Fatalf("gopi -r: exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "what uses greet?") ||
		!strings.Contains(lines[1], "└─ 0-Callers") || !strings.Contains(lines[1], "ASSIGN-CALLERS") ||
		!strings.Contains(lines[2], "└─ 1-Tests") {
		t.Errorf("gopi -r:\n%s", list)
	}
}

// With async.enabled a task runs as a background job while the parent
// goes on: the parent's next turn happens before the subagent answers,
// the subagent's result is delivered afterwards, and print mode waits for
// it and prints the answer the model gives then. The subagent's session
// is listed under the parent's.
func TestPrintModeBackgroundTask(t *testing.T) {
	r := newAgentRig(t)
	release := make(chan struct{})
	r.Srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("task", map[string]any{"agent": "explore", "tasks": []map[string]string{
			{"id": "Scout", "description": "find callers", "assignment": "ASSIGN-SCOUT: who calls greet"}}})}},
		// The subagent's turn waits until the parent has gone on.
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("main.go:3 calls greet")}, Match: "Working as a subagent", Hold: release},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("The scout is looking; meanwhile nothing else to do.")}, Match: "Started 1 background task job"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("greet is called from main.go:3.")}, Match: "main.go:3 calls greet"},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("async:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The subagent answers once the parent has finished its second turn.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			// The parent's two answers written to the end (the
			// subagent's is held), the second for its turn after the
			// task started.
			for _, q := range r.Srv.Requests() {
				if strings.Contains(string(q.Body), "Started 1 background task job") && r.Srv.Finished() >= 2 {
					close(release)
					return
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "what uses greet?")
	if code != 0 || stdout != "greet is called from main.go:3.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "waiting for 1 background job(s)") {
		t.Errorf("stderr: %s", stderr)
	}
	// The parent's turns, in order: the call, the turn while the subagent
	// worked, the turn with the delivered result.
	var parent []string
	for _, q := range r.Srv.Requests() {
		if !strings.Contains(string(q.Body), "Working as a subagent") {
			parent = append(parent, string(q.Body))
		}
	}
	if len(parent) != 3 || !strings.Contains(parent[1], "Started 1 background task job") || strings.Contains(parent[1], "main.go:3 calls greet") ||
		!strings.Contains(parent[2], "main.go:3 calls greet") {
		t.Fatalf("%d parent requests", len(parent))
	}
	list, _, _ := r.run("", "-r")
	if lines := strings.Split(strings.TrimSpace(list), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "└─ 0-Scout") {
		t.Errorf("gopi -r:\n%s", list)
	}
}
