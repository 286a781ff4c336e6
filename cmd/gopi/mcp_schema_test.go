package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// An MCP server whose tools' input schemas providers refuse ("not a
// schema", a top-level anyOf, $defs and $schema): -p offers every tool
// with an object schema (the one too large to send is left out), warns on
// stderr, and the model's call of a cleaned tool reaches the server. Over
// RPC the warnings come as notify frames and in get_mcp_servers.
func TestMCPSchemasCleanedThroughCLI(t *testing.T) {
	fake, fakeArgs := mcptest.FakeServer()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("mcp__odd__alts", `{"name":"x"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("done")}},
	)
	r.writeMCPConfig(map[string]any{"odd": map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "schemas"}}})
	out, stderr, code := r.run("", "-p", "use the odd tools")
	if code != 0 || !strings.Contains(out, "done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, want := range []string{
		`gopi: warning: MCP server "odd", tool stringy: its inputSchema is a string ("not a schema"), not a JSON Schema object; the tool is offered without parameters`,
		`gopi: warning: MCP server "odd", tool alts: its inputSchema combines schemas at the top level (anyOf)`,
		`gopi: warning: MCP server "odd", tool huge: its inputSchema is`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var body struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	reqs := r.Srv.Requests()
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	offered := map[string]string{}
	for _, tl := range body.Tools {
		offered[tl.Name] = string(tl.InputSchema)
	}
	for name, want := range map[string]string{
		"mcp__odd__plain":   `{"properties":{"x":{"type":"string"}},"type":"object"}`,
		"mcp__odd__stringy": `{"type":"object","properties":{}}`,
		"mcp__odd__refs":    `{"properties":{"opts":{"properties":{"depth":{"type":"integer"}},"type":"object"}},"required":["opts"],"type":"object"}`,
		"mcp__odd__alts":    `{"properties":{"id":{"type":"string"},"name":{"type":"string"}},"type":"object"}`,
	} {
		if offered[name] != want {
			t.Errorf("%s offered as %s, want %s", name, offered[name], want)
		}
	}
	if _, ok := offered["mcp__odd__huge"]; ok {
		t.Error("the huge tool was offered")
	}
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `called alts with {\"name\":\"x\"}`) {
		t.Errorf("the call did not reach the server: %.500s", reqs[len(reqs)-1].Body)
	}

	r2 := newAgentRig(t)
	r2.writeMCPConfig(map[string]any{"odd": map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "schemas"}}})
	rr := startRPC(t, r2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := rr.C.MCPServers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Servers) != 1 || len(st.Servers[0].Warnings) != 3 {
		t.Errorf("get_mcp_servers: %+v", st)
	}
	if got := rr.Transcript(); strings.Count(got, `"method":"notify"`) != 3 || !strings.Contains(got, `"notifyType":"warning"`) {
		t.Errorf("transcript:\n%.3000s", got)
	}
}
