package acp

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// The editor's MCP servers start with the session and their tools reach
// the model; gopi says it takes http and sse servers too. A tool its
// server marks read-only runs without a permission request; one it does
// not mark is asked about (here rejected).
func TestEditorMCPServers(t *testing.T) {
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{
			mockllm.ToolCall("mcp__editor__echo", `{"text":"from the editor's server"}`),
			mockllm.ToolCall("mcp__editor__fail", `{}`),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	r.connect(sdk.FileSystemCapabilities{})
	r.client.answer = answer(permission.RejectOnce)
	cmd, args := mcptest.FakeServer()
	resp, err := r.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: r.project, McpServers: []sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "editor", Command: cmd, Args: args, Env: []sdk.EnvVariable{{Name: mcptest.EnvMode, Value: "serve"}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if stop := r.prompt(resp.SessionId, "use the editor's tool"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	reqs := r.llm.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), `"name":"mcp__editor__echo"`) || !strings.Contains(string(reqs[1].Body), "echo: from the editor's server") {
		t.Fatalf("the editor's MCP tool did not reach the model (%d requests)", len(reqs))
	}
	if asked := r.client.asked(); len(asked) != 1 || *asked[0].ToolCall.Title != "mcp__editor__fail" {
		t.Fatalf("permission requests %+v: want one, for the unmarked tool", asked)
	}
	if !strings.Contains(string(reqs[1].Body), "The user rejected this mcp__editor__fail call") {
		t.Fatal("the rejected MCP call was not reported to the model")
	}
}
