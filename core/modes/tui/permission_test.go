package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// toolCall is a scripted call with JSON arguments.
func toolCall(name string, args any) mockllm.Block {
	b, _ := json.Marshal(args)
	return mockllm.ToolCall(name, string(b))
}

// With tui.requirePermission set, a call that needs approval opens a
// picker naming the agent and the command; "always allow" covers the
// rest of the session, subagents included, while a subagent's write is
// still asked about (one gate for the tree) and Esc refuses it.
func TestPermissionDialog(t *testing.T) {
	t.Parallel()
	r := newRigFull(t, "tui:\n  requirePermission: [\"*\"]\n", func(o *agentsession.Options, _ *models.Registry) {
		o.Permissions = permission.Options{Require: o.Config.Settings.RequirePermission(config.PermissionTUI), Setting: "tui.requirePermission"}
	},
		mockllm.Turn{Blocks: []mockllm.Block{toolCall("bash", map[string]any{"command": "echo parent >> log.txt"})}},
		mockllm.Turn{Blocks: []mockllm.Block{toolCall("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Fix", "description": "fix it", "assignment": "ASSIGN-FIX: log and write"},
		}})}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{
			toolCall("bash", map[string]any{"command": "echo child >> log.txt"}),
			toolCall("write", map[string]any{"path": "child.txt", "content": "from the subagent\n"}),
		}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{mockllm.Text("child done")}},
		answer("all done"),
	)
	r.typeAndSend("log twice")
	r.until("the permission question", func() bool { return r.m.picker != nil && r.m.dialog != nil })
	if v := r.view(); !strings.Contains(v, "The agent wants to run bash. Allow it?") || !strings.Contains(v, "$ echo parent >> log.txt") || !strings.Contains(v, "Always allow bash in this session") {
		t.Fatalf("dialog:\n%s", v)
	}
	r.key("down") // Always allow bash in this session
	r.key("enter")
	r.until("the subagent's question", func() bool { return r.m.picker != nil && r.m.dialog != nil })
	if v := r.view(); !strings.Contains(v, "-Fix wants to run write. Allow it?") || !strings.Contains(v, "write child.txt") {
		t.Fatalf("subagent dialog:\n%s", v)
	}
	r.key("esc")
	r.idle()
	if got := readFile(t, filepath.Join(r.project, "log.txt")); got != "parent\nchild\n" {
		t.Errorf("log.txt %q: both bash calls should have run, the second without a question", got)
	}
	if _, err := os.Stat(filepath.Join(r.project, "child.txt")); err == nil {
		t.Error("the refused write wrote child.txt")
	}
	var child string
	for _, req := range r.llm.Requests() {
		if b := string(req.Body); strings.Contains(b, "ASSIGN-FIX") && strings.Contains(b, "dismissed the permission request for this write call") {
			child = b
		}
	}
	if child == "" {
		t.Error("the subagent was not told that its write was refused")
	}
	if r.m.dialog != nil || r.m.picker != nil {
		t.Error("a dialog stayed open")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
