package rpc_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// rpcPermissionConfig turns the gate on for --mode rpc.
func rpcPermissionConfig(t *testing.T, r *agentrig.Rig, patterns string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("rpc:\n  requirePermission: "+patterns+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// With rpc.requirePermission set, the host is asked with a select
// dialog before each call that needs approval, its subagents' calls
// included (one gate for the tree): "always allow" covers the rest of the
// session, a rejection blocks the call and the (sub)agent is told.
func TestRPCPermissionGate(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{
			agentrig.ToolCall("bash", map[string]any{"command": "echo parent >> log.txt"}),
			agentrig.ToolCall("peek_host", map[string]any{}),
			agentrig.ToolCall("poke_host", map[string]any{}),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Fix", "description": "fix it", "assignment": "ASSIGN-FIX: log and write"},
		}})}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{
			agentrig.ToolCall("bash", map[string]any{"command": "echo child >> log.txt"}),
			agentrig.ToolCall("write", map[string]any{"path": "child.txt", "content": "from the subagent\n"}),
		}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{text("child done")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("all done")}},
	)
	rpcPermissionConfig(t, r, `["*"]`)
	rr := startRPC(t, r)
	var mu sync.Mutex
	var ran []string
	hostTool := func(name string, readOnly bool) rpcclient.Tool {
		return rpcclient.Tool{Name: name, Description: name, Parameters: map[string]any{"type": "object"}, ReadOnly: readOnly,
			Run: func(context.Context, map[string]any, func(rpcclient.ToolResult)) (rpcclient.ToolResult, error) {
				mu.Lock()
				ran = append(ran, name)
				mu.Unlock()
				return rpcclient.TextResult("ok"), nil
			}}
	}
	if err := rr.C.SetHostTools(context.Background(), hostTool("peek_host", true), hostTool("poke_host", false)); err != nil {
		t.Fatal(err)
	}
	var asked []rpcclient.UIRequest
	rr.C.OnUI(func(req rpcclient.UIRequest) rpcclient.UIAnswer {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		pick := "Reject"
		if strings.Contains(req.Title, "wants to run bash") {
			pick = "Always allow bash in this session"
		}
		return rpcclient.UIAnswer{Value: &pick}
	})
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "log twice"})
	end()
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 3 {
		t.Fatalf("%d questions, want 3 (the parent's bash and poke_host, the subagent's write): %+v", len(asked), asked)
	}
	// The first turn's questions come one at a time, in either order.
	first, poke, second := asked[0], asked[1], asked[2]
	if strings.Contains(first.Title, "poke_host") {
		first, poke = poke, first
	}
	if first.Method != "select" || first.Title != "The agent wants to run bash. Allow it?\n$ echo parent >> log.txt" || first.Timeout != 0 ||
		strings.Join(first.Options, "|") != "Allow once|Always allow bash in this session|Reject|Always reject bash in this session" {
		t.Errorf("bash question %+v", first)
	}
	if poke.Title != "The agent wants to run poke_host. Allow it?\n{}" {
		t.Errorf("poke_host question %+v", poke)
	}
	if strings.Join(ran, ",") != "peek_host" {
		t.Errorf("host tools run: %v (the read-only one without a question, the rejected one not at all)", ran)
	}
	if !strings.HasPrefix(second.Title, "Subagent ") || !strings.Contains(second.Title, "-Fix wants to run write. Allow it?\nwrite child.txt") {
		t.Errorf("subagent question %+v", second)
	}
	if b, err := os.ReadFile(filepath.Join(r.Project, "log.txt")); err != nil || string(b) != "parent\nchild\n" {
		t.Errorf("log.txt %q %v: both bash calls should have run", b, err)
	}
	if _, err := os.Stat(filepath.Join(r.Project, "child.txt")); err == nil {
		t.Error("the rejected write wrote child.txt")
	}
	told := false
	for _, req := range r.Srv.Requests() {
		if b := string(req.Body); strings.Contains(b, "ASSIGN-FIX") && strings.Contains(b, "The user rejected this write call") {
			told = true
		}
	}
	if !told {
		t.Error("the subagent was not told that its write was rejected")
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// abort withdraws a question the host has not answered: gopi sends the
// dialog's cancel frame, the call does not run and the run ends.
func TestRPCPermissionAbort(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "echo ran > ran.txt"})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("never asked for")}},
	)
	rpcPermissionConfig(t, r, "[bash]")
	rr := startRPC(t, r)
	asked := make(chan rpcclient.UIRequest, 1)
	release := make(chan struct{})
	rr.C.OnUI(func(req rpcclient.UIRequest) rpcclient.UIAnswer {
		asked <- req
		<-release // the user never answers in time
		v := "Allow once"
		return rpcclient.UIAnswer{Value: &v}
	})
	defer close(release)
	ended := make(chan struct{})
	rr.C.OnEvent(func(f rpcclient.Frame) {
		if f.Type == "agent_end" {
			close(ended)
		}
	})
	rr.Call("prompt", map[string]any{"message": "run it"})
	var q rpcclient.UIRequest
	select {
	case q = <-asked:
	case <-ended:
		t.Fatal("the run ended without asking the host")
	}
	cancelled := rr.Expect("extension_ui_request")
	rr.Call("abort", nil)
	var f struct {
		Method   string `json:"method"`
		TargetID string `json:"targetId"`
	}
	if err := cancelled().Decode(&f); err != nil || f.Method != "cancel" || f.TargetID != q.ID {
		t.Fatalf("cancel frame %+v %v (question %s)", f, err, q.ID)
	}
	<-ended
	if _, err := os.Stat(filepath.Join(r.Project, "ran.txt")); err == nil {
		t.Error("the call ran although its question was withdrawn")
	}
	if n := len(r.Srv.Requests()); n != 1 {
		t.Errorf("%d model requests after the abort, want 1", n)
	}
	rr.Stdin.Close()
	<-rr.Exit
}
