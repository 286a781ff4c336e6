package agentsession

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
)

// requestTools lists the tool names a request offered.
func requestTools(req *ai.Request) []string {
	var out []string
	for _, tl := range req.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// With tools.discoveryMode=all the first request offers read, bash, edit
// and search_tool_bm25 but no MCP tool and no other discoverable
// built-in; the model searches, the match is activated and offered from
// the next request on, and calling it works.
func TestDiscoveryActivatesSearchedTool(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
	f.settings("tools:\n  discoveryMode: all\n")
	f.writeMCP(map[string]string{"fake": "serve"})
	f.script.add(
		callTool("c1", "search_tool_bm25", `{"query":"echo text back","limit":1}`),
		callTool("c2", "mcp__fake__echo", `{"text":"found you"}`),
		callTool("c3", "search_tool_bm25", `{"query":"write file"}`),
		say("done"),
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := requestTools(reqs[0])
	for _, want := range []string{"read", "bash", "edit", "search_tool_bm25"} {
		if !slices.Contains(first, want) {
			t.Errorf("first request lacks %s: %v", want, first)
		}
	}
	for _, hidden := range []string{"mcp__fake__echo", "write", "find", "search"} {
		if slices.Contains(first, hidden) {
			t.Errorf("first request offers the hidden %s: %v", hidden, first)
		}
	}
	if second := requestTools(reqs[1]); !slices.Contains(second, "mcp__fake__echo") || slices.Contains(second, "mcp__fake__fail") {
		t.Errorf("after the search the request offers %v; want mcp__fake__echo alone of the server's tools", second)
	}
	if !slices.Contains(requestTools(reqs[3]), "write") {
		t.Errorf("write was not activated: %v", requestTools(reqs[3]))
	}
	got := toolResultTexts(reqs[3].Messages)
	if len(got) != 3 || !strings.HasPrefix(got[0], `{"query":"echo text back","activated_tools":["mcp__fake__echo"],"match_count":1,"total_tools":`) ||
		got[1] != "echo: found you" || !strings.Contains(got[2], `"activated_tools":["write"`) {
		t.Errorf("tool results = %q", got)
	}
	if !strings.Contains(s.SystemPrompt(), "mcp__fake__echo") {
		t.Error("the system prompt does not name the activated tool")
	}
}

// mcp-only hides the MCP tools but keeps every built-in; a server named
// in mcp.discoveryDefaultServers is offered from the start; an empty
// query is refused with a message saying what to give.
func TestDiscoveryMCPOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
	f.settings("mcp:\n  discoveryMode: true\n")
	f.writeMCP(map[string]string{"fake": "serve", "other": "serve"})
	f.script.add(callTool("c1", "search_tool_bm25", `{"query":"  "}`), callTool("c2", "search_tool_bm25", `{"query":"?!"}`), say("done"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	first := requestTools(reqs[0])
	if !slices.Contains(first, "write") || !slices.Contains(first, "search_tool_bm25") || slices.Contains(first, "mcp__fake__echo") {
		t.Errorf("mcp-only offers %v", first)
	}
	got := toolResultTexts(reqs[len(reqs)-1].Messages)
	if len(got) != 2 || !strings.Contains(got[0], "query is empty") || !strings.Contains(got[1], "at least one letter or number") {
		t.Errorf("results = %q", got)
	}

	f2 := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
	f2.settings("tools:\n  discoveryMode: mcp-only\nmcp:\n  discoveryDefaultServers: [fake]\n")
	f2.writeMCP(map[string]string{"fake": "serve", "other": "serve"})
	reg2 := f2.registry(f2.config())
	s2 := f2.open(Options{Models: reg2, Model: f2.model(reg2, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	var names []string
	for _, tl := range s2.Tools().Offered() {
		names = append(names, tl.Definition().Name)
	}
	if !slices.Contains(names, "mcp__fake__echo") || slices.Contains(names, "mcp__other__echo") {
		t.Errorf("with fake a default server the session offers %v", names)
	}
}
