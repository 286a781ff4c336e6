package acp

import (
	"context"
	"encoding/json"
	"path/filepath"
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
	t.Parallel()
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

// An untrusted project's MCP servers do not start in ACP sessions and its
// settings cannot switch secret obfuscation off; the log says what was
// left out and how to trust the project. Started with TrustProject, the
// same project's server and settings take effect. (The editor's own
// servers are the editor's choice and always start.)
func TestUntrustedProjectInACP(t *testing.T) {
	t.Parallel()
	const secret = "abcdefgh12"
	for _, trust := range []bool{false, true} {
		r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}})
		r.trust = trust
		r.environ = append(r.environ, "MY_TOKEN="+secret)
		r.write(filepath.Join(r.home, ".gopi", "agent", "config.yml"), "secrets:\n  enabled: true\n")
		cmd, args := mcptest.FakeServer()
		data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"proj": map[string]any{"command": cmd, "args": args, "env": map[string]string{mcptest.EnvMode: "serve"}}}})
		r.write(filepath.Join(r.project, ".mcp.json"), string(data))
		r.settings(`{"secrets": {"enabled": false}}`)
		r.connect(sdk.FileSystemCapabilities{})
		resp := r.newSession()
		if stop := r.prompt(resp.SessionId, "my token is "+secret); stop != sdk.StopReasonEndTurn {
			t.Fatalf("stop %s", stop)
		}
		body := r.requestText(0)
		if got := strings.Contains(body, "mcp__proj__echo"); got != trust {
			t.Errorf("trust=%v: the project's MCP tool offered: %v", trust, got)
		}
		if got := strings.Contains(body, secret); got != trust {
			t.Errorf("trust=%v: the secret sent in clear: %v", trust, got)
		}
		logs := r.logs()
		if refused := strings.Contains(logs, "is not trusted"); refused == trust {
			t.Errorf("trust=%v: log:\n%s", trust, logs)
		}
		if !trust && (!strings.Contains(logs, `MCP server "proj" runs`) || !strings.Contains(logs, "--trust-project")) {
			t.Errorf("the log does not say what was left out and how to allow it:\n%s", logs)
		}
	}
}
