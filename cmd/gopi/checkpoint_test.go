package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// sessionLines reads a session file as JSON objects, the header first.
func sessionLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		out = append(out, m)
	}
	return out
}

// activePath returns the entries from the last one back to the root,
// leaf first, by their parentId.
func activePath(entries []map[string]any) []map[string]any {
	byID := map[string]map[string]any{}
	for _, e := range entries {
		byID[e["id"].(string)] = e
	}
	var path []map[string]any
	for e := entries[len(entries)-1]; e != nil; {
		path = append(path, e)
		parent, _ := e["parentId"].(string)
		e = byID[parent]
	}
	return path
}

// toolResultOf returns the message entry holding the result of tool name.
func toolResultOf(entries []map[string]any, name string) map[string]any {
	for _, e := range entries {
		if m, ok := e["message"].(map[string]any); ok && m["role"] == "toolResult" && m["toolName"] == name {
			return e
		}
	}
	return nil
}

// A checkpoint, an exploration (a read and a bash call) and a rewind with
// a report: the session file holds omp's branch_summary and rewind-report
// entries on the active path, the explored messages are left off it, the
// model's next request (in the same run) carries the report and not the
// exploration, and a resumed session sends the same.
func TestCheckpointRewindCollapsesExploration(t *testing.T) {
	const report = "The greeting is built in notes.txt; nothing else uses it."
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("checkpoint", map[string]any{"goal": "find where the greeting is built"})}},
		mockllm.Turn{Blocks: []mockllm.Block{
			agentrig.ToolCall("read", map[string]any{"path": "notes.txt"}),
			agentrig.ToolCall("bash", map[string]any{"command": "echo EXPLORED-BY-BASH"}),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("rewind", map[string]any{"report": "  " + report + "\n"})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("The greeting lives in notes.txt.")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("I found it in notes.txt.")}},
	)
	r.Write("notes.txt", "SECRET-NOTE-CONTENT greeting\n")
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("checkpoint:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "where is the greeting built?")
	if code != 0 || out != "The greeting lives in notes.txt.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if tools := string(r.Srv.Requests()[0].Body); !strings.Contains(tools, `"name":"checkpoint"`) || !strings.Contains(tools, `"name":"rewind"`) {
		t.Fatal("checkpoint.enabled did not offer checkpoint and rewind")
	}
	explored := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(explored, "SECRET-NOTE-CONTENT") || !strings.Contains(explored, "EXPLORED-BY-BASH") {
		t.Fatalf("the exploration did not reach the model: %s", explored)
	}
	checkCollapsed := func(i int) {
		t.Helper()
		msgs := agentrig.MustMarshal(t, r.RequestMessages(i))
		for _, gone := range []string{"SECRET-NOTE-CONTENT", "EXPLORED-BY-BASH", `"name":"read"`, `"name":"rewind"`} {
			if strings.Contains(msgs, gone) {
				t.Errorf("request %d still carries %s: %s", i, gone, msgs)
			}
		}
		for _, kept := range []string{"where is the greeting built?", "Checkpoint created.", report} {
			if !strings.Contains(msgs, kept) {
				t.Errorf("request %d lacks %q: %s", i, kept, msgs)
			}
		}
	}
	checkCollapsed(3)

	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files: %v", files)
	}
	lines := sessionLines(t, files[0])
	entries := lines[1:]
	for _, e := range entries {
		for _, k := range []string{"type", "id", "timestamp"} {
			if _, ok := e[k].(string); !ok {
				t.Errorf("entry without %s: %v", k, e)
			}
		}
		if _, ok := e["parentId"]; !ok {
			t.Errorf("entry without parentId: %v", e)
		}
	}
	anchor := toolResultOf(entries, "checkpoint")
	if anchor == nil {
		t.Fatal("no checkpoint result in the session")
	}
	var summary, rewindMsg map[string]any
	for i, e := range entries {
		if e["type"] == "branch_summary" {
			summary = e
			if i+1 < len(entries) {
				rewindMsg = entries[i+1]
			}
		}
	}
	if summary == nil || summary["fromId"] != anchor["id"] || summary["parentId"] != anchor["id"] || summary["summary"] != report {
		t.Fatalf("branch summary %v, checkpoint result entry %v", summary, anchor["id"])
	}
	if d, _ := summary["details"].(map[string]any); d == nil || d["startedAt"] == "" || len(d) != 1 {
		t.Errorf("branch summary details: %v", summary["details"])
	}
	if _, ok := summary["fromExtension"]; ok {
		t.Errorf("branch summary with fromExtension: %v", summary)
	}
	if rewindMsg == nil || rewindMsg["type"] != "custom_message" || rewindMsg["customType"] != "rewind-report" || rewindMsg["content"] != report ||
		rewindMsg["display"] != false || rewindMsg["attribution"] != "agent" || rewindMsg["parentId"] != summary["id"] {
		t.Fatalf("rewind-report entry: %v", rewindMsg)
	}
	if d, _ := rewindMsg["details"].(map[string]any); d == nil || d["startedAt"] != summary["details"].(map[string]any)["startedAt"] || d["rewoundAt"] == nil {
		t.Errorf("rewind-report details: %v", rewindMsg["details"])
	}
	onPath := map[string]bool{}
	for _, e := range activePath(entries) {
		onPath[e["id"].(string)] = true
	}
	for _, name := range []string{"read", "bash", "rewind"} {
		e := toolResultOf(entries, name)
		if e == nil {
			t.Fatalf("the %s result is not in the file (the abandoned branch stays)", name)
		}
		if onPath[e["id"].(string)] {
			t.Errorf("the %s result is still on the active path", name)
		}
	}
	for _, e := range []map[string]any{anchor, summary, rewindMsg} {
		if !onPath[e["id"].(string)] {
			t.Errorf("entry %v is off the active path", e["id"])
		}
	}

	// Resumed: the same collapsed conversation, plus the first answer.
	out, stderr, code = r.run("", "-p", "-c", "what did you find?")
	if code != 0 || out != "I found it in notes.txt.\n" {
		t.Fatalf("continue: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	checkCollapsed(4)
}

// A model that stops with a checkpoint open and no rewind is sent back to
// call rewind (a hidden reminder); the rewind then ends the run.
func TestCheckpointReminderBeforeStopping(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("checkpoint", map[string]any{"goal": "look around"})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("I looked around.")}},
		mockllm.Turn{Match: "checkpoint is still open", Blocks: []mockllm.Block{agentrig.ToolCall("rewind", map[string]any{"report": "Nothing to see."})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Nothing to see.")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("checkpoint:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "look around")
	if code != 0 || !strings.HasSuffix(out, "Nothing to see.\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if n := len(r.Srv.Requests()); n != 4 {
		t.Fatalf("%d requests, want 4 (the reminder, then the rewind's turn)", n)
	}
}

// Without checkpoint.enabled (omp's default: off) neither tool is offered.
func TestCheckpointOffByDefault(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("hi")}})
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if body := string(r.Srv.Requests()[0].Body); strings.Contains(body, `"name":"checkpoint"`) || strings.Contains(body, `"name":"rewind"`) {
		t.Fatal("checkpoint and rewind offered without checkpoint.enabled")
	}
}

// In the terminal a checkpoint, its exploration and the rewind show as
// tool cards with their goal and report and the results' text; the answer
// follows, and the session tree shows the branch summary.
func TestCheckpointInTmux(t *testing.T) {
	mark := shelltest.Mark(t)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("checkpoint", map[string]any{"goal": "find the greeting"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "echo EXPLORED-BY-BASH"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("rewind", map[string]any{"report": "The greeting is in notes.txt."})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Found it after the rewind.")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("checkpoint:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 100, 40, r.Project, append(append([]string(nil), r.Environ...), mark), "--no-title", "--model", "mock/mock-model")
	x.waitFor("Message gopi")
	x.typ("where is the greeting?")
	x.keys("Enter")
	x.waitFor("✓ [checkpoint: find the greeting]", "Checkpoint created.", "✓ [bash: echo EXPLORED-BY-BASH]",
		"✓ [rewind: The greeting is in notes.txt.]", "Rewind requested.", "Found it after the rewind.")
	x.typ("/tree")
	x.keys("Enter")
	x.waitFor("[branch summary]: The greeting is in notes.txt.")
	x.keys("Escape")
	testwait.Until(t, "the tree to close", func() bool { return !strings.Contains(x.screen(), "Session tree") })
	x.keys("C-d")
	x.waitFor("EXITED 0")
}

// Over RPC the run streams the three tool calls as usual, and after the
// rewind get_messages answers the collapsed conversation: the checkpoint,
// the branch summary and the hidden report, not the exploration.
func TestCheckpointOverRPC(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("checkpoint", map[string]any{"goal": "find the greeting"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "echo EXPLORED-BY-BASH"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("rewind", map[string]any{"report": "The greeting is in notes.txt."})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Found it.")}},
	)
	r.Environ = append(r.Environ, shelltest.Mark(t))
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("checkpoint:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rr := startRPC(t, r, "--model", "mock/mock-model")
	end := rr.Expect("agent_end")
	if resp := rr.Call("prompt", map[string]any{"message": "where is the greeting?"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	end()
	msgs := string(rr.Call("get_messages", nil).Data)
	if strings.Contains(msgs, "EXPLORED-BY-BASH") || !strings.Contains(msgs, `"role":"branchSummary"`) ||
		!strings.Contains(msgs, `"customType":"rewind-report"`) || !strings.Contains(msgs, "Checkpoint created.") {
		t.Fatalf("messages after the rewind: %s", msgs)
	}
	tr := rr.Transcript()
	for _, want := range []string{`"toolName":"checkpoint"`, `"toolName":"bash"`, `"toolName":"rewind"`, "Rewind requested."} {
		if !strings.Contains(tr, want) {
			t.Errorf("the transcript lacks %s", want)
		}
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
}
