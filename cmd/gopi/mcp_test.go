package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// trustProject trusts the rig's project for its runs (PI_TRUST_PROJECT).
func (r *agentRig) trustProject() {
	r.Environ = append(r.Environ, config.EnvTrustProject+"=1")
}

// writeMCPConfig writes the project's .gopi/mcp.json and trusts the
// project (PI_TRUST_PROJECT): these tests are about MCP, trust_test.go
// about trust.
func (r *agentRig) writeMCPConfig(servers map[string]any) {
	r.t.Helper()
	r.trustProject()
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		r.t.Fatal(err)
	}
	dir := filepath.Join(r.Project, ".gopi")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), data, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// TestMCPToolThroughModel: the model calls a tool of a real MCP server
// (server-everything from npm) and reads one of its resources; both
// results reach the model. A server that cannot start is reported by name
// and the run goes on.
func TestMCPToolThroughModel(t *testing.T) {
	node, args := mcptest.Everything(t)
	fake, fakeArgs := mcptest.FakeServer()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("mcp__everything__echo", `{"message":"ping from the model"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("read", `{"path":"mcp://everything"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("all done")}},
	)
	r.writeMCPConfig(map[string]any{
		"everything": map[string]any{"command": node, "args": args},
		"broken":     map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "crash"}},
		"remote":     map[string]any{"url": "https://example.invalid/mcp"},
	})
	out, stderr, code := r.run("", "-p", "use the echo tool")
	if code != 0 || !strings.Contains(out, "all done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, want := range []string{
		`Server "remote": stdio server requires "command" field`,
		`MCP server "broken" cannot start`,
		"missing API key, giving up",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(string(reqs[0].Body), `"name":"mcp__everything__echo"`) {
		t.Error("the MCP tool was not offered to the model")
	}
	if !strings.Contains(string(reqs[1].Body), "Echo: ping from the model") {
		t.Errorf("the MCP tool's result did not reach the model: %s", reqs[1].Body)
	}
	if !strings.Contains(string(reqs[2].Body), "mcp://everything/") {
		t.Errorf("the mcp:// listing did not reach the model: %s", reqs[2].Body)
	}

	// --no-mcp starts nothing.
	r2 := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("plain")}})
	r2.writeMCPConfig(map[string]any{"everything": map[string]any{"command": node, "args": args}})
	if _, stderr, code := r2.run("", "-p", "--no-mcp", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(string(r2.Srv.Requests()[0].Body), "mcp__everything") {
		t.Error("--no-mcp still offered MCP tools")
	}
}

// TestRPCGetMCPServers: get_mcp_servers reports each server's state and
// tools, a failed server with its reason and the configuration problems.
func TestRPCGetMCPServers(t *testing.T) {
	fake, fakeArgs := mcptest.FakeServer()
	r := newAgentRig(t)
	r.writeMCPConfig(map[string]any{
		"good":   map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "serve"}},
		"broken": map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "crash"}},
		"both":   map[string]any{"command": "x", "url": "https://x"},
	})
	rr := startRPC(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := rr.C.MCPServers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]rpcclient.MCPServer{}
	for _, s := range st.Servers {
		byName[s.Name] = s
	}
	if g := byName["good"]; g.State != "connected" || len(g.Tools) != 5 || g.Tools[1] != "mcp__good__echo" || !g.Resources {
		t.Errorf("good = %+v", g)
	}
	if b := byName["broken"]; b.State != "failed" || !strings.Contains(b.Error, "missing API key") {
		t.Errorf("broken = %+v", b)
	}
	if len(st.Errors) != 1 || !strings.Contains(st.Errors[0], `Server "both": both "command" and "url" are set`) {
		t.Errorf("errors = %v", st.Errors)
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatal(code)
	}
}
