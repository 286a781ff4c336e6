package agentsession

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/mcp"
	"github.com/gopi-agent/gopi/internal/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.Main() // the test binary doubles as a fake MCP server
	os.Exit(m.Run())
}

// writeMCP writes the fixture project's .gopi/mcp.json with one fake
// server per name → mode.
func (f *fixture) writeMCP(modes map[string]string) {
	f.t.Helper()
	cmd, args := mcptest.FakeServer()
	servers := map[string]any{}
	for name, mode := range modes {
		servers[name] = map[string]any{"command": cmd, "args": args, "env": map[string]string{mcptest.EnvMode: mode}}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.MkdirAll(filepath.Join(f.project, ".gopi"), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.project, ".gopi", "mcp.json"), data, 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func toolResultTexts(msgs []ai.Message) []string {
	var out []string
	for _, m := range msgs {
		if r, ok := m.(*ai.ToolResultMessage); ok {
			for _, c := range r.Content {
				if t, ok := c.(*ai.TextContent); ok {
					out = append(out, t.Text)
				}
			}
		}
	}
	return out
}

// The session offers the MCP tools, serves mcp:// through read, keeps
// working when a tool's server crashes, shares its servers with a
// subagent, and shuts them down on Close. The project is trusted
// (PI_TRUST_PROJECT); without that its servers never start.
func TestSessionMCP(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
	f.writeMCP(map[string]string{"fake": "serve", "dead": "crash"})
	f.script.add(
		callTool("c1", "mcp__fake__echo", `{"text":"hello"}`),
		callTool("c2", "read", `{"path":"mcp://fake/fake://greeting"}`),
		callTool("c3", "mcp__fake__crash", `{}`),
		callTool("c4", "mcp__fake__echo", `{"text":"after the crash"}`),
		say("done"),
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	names := map[string]bool{}
	for _, tl := range s.Tools().Offered() {
		names[tl.Definition().Name] = true
	}
	if !names["mcp__fake__echo"] || names["mcp__dead__echo"] {
		t.Fatalf("tools = %v", names)
	}
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	got := toolResultTexts(reqs[len(reqs)-1].Messages)
	want := []string{"echo: hello", "hello from the fake server", `MCP server "fake"`, "echo: after the crash"}
	if len(got) != len(want) {
		t.Fatalf("tool results = %q", got)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("result %d = %q; want %q", i, got[i], want[i])
		}
	}
	st := s.Resources().MCPStatus()
	if len(st.Problems()) != 1 || !strings.Contains(st.Problems()[0], `MCP server "dead" cannot start`) {
		t.Errorf("problems = %v", st.Problems())
	}
	child, err := s.NewChild(context.Background(), ChildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if child.Resources().MCP() != s.Resources().MCP() {
		t.Error("the subagent does not share its parent's MCP servers")
	}
	child.Close()
	if st := s.Resources().MCPStatus().Servers; st[0].State != mcp.StateConnected && st[1].State != mcp.StateConnected {
		t.Errorf("closing the subagent closed the parent's servers: %+v", st)
	}
	s.Close()
	for _, sv := range s.Resources().MCPStatus().Servers {
		if sv.State != mcp.StateClosed {
			t.Errorf("after Close %s is %s", sv.Name, sv.State)
		}
	}

	// An untrusted project's servers are not started, nor offered.
	f3 := newFixture(t, keyEnv)
	f3.writeMCP(map[string]string{"fake": "serve"})
	reg3 := f3.registry(f3.config())
	s3 := f3.open(Options{Models: reg3, Model: f3.model(reg3, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if st := s3.Resources().MCPStatus(); len(st.Servers) != 0 {
		t.Errorf("an untrusted project's MCP servers: %+v", st.Servers)
	}
	for _, tl := range s3.Tools().Offered() {
		if strings.HasPrefix(tl.Definition().Name, "mcp__") {
			t.Errorf("an untrusted project's MCP tool %s was offered", tl.Definition().Name)
		}
	}

	// NoMCP starts nothing.
	f2 := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
	f2.writeMCP(map[string]string{"fake": "serve"})
	reg2 := f2.registry(f2.config())
	s2 := f2.open(Options{Models: reg2, Model: f2.model(reg2, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoMCP: true})
	if s2.Resources().MCP() != nil {
		t.Error("NoMCP still started MCP")
	}
	for _, tl := range s2.Tools().Offered() {
		if strings.HasPrefix(tl.Definition().Name, "mcp__") {
			t.Errorf("NoMCP offered %s", tl.Definition().Name)
		}
	}
}

// Servers given in the options come first and hide a file's server of the
// same name; invalid ones are reported, not started.
func TestMergeMCPServers(t *testing.T) {
	t.Parallel()
	given := []*config.MCPServer{{Name: "a", Command: "x"}, {Name: "bad", URL: "https://x"}}
	configured := []*config.MCPServer{{Name: "a", Type: config.MCPStdio, Command: "from-file"}, {Name: "b", Type: config.MCPStdio, Command: "y"}}
	out, errs := mergeMCPServers(given, configured)
	if len(out) != 2 || out[0].Command != "x" || out[0].Type != config.MCPStdio || out[1].Name != "b" {
		t.Errorf("servers = %+v %+v", out[0], out[1:])
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `Server "bad": stdio server requires "command" field`) {
		t.Errorf("errors = %v", errs)
	}
}
