package agentsession

import (
	"context"
	"slices"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
)

// A tool search_tool_bm25 activated is stored in the session file as an
// mcp_tool_selection entry (the whole selection, as omp stores it) and is
// offered again from the first request after the session is resumed.
func TestDiscoveryActivationSurvivesResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
	f.settings("tools:\n  discoveryMode: all\n")
	f.writeMCP(map[string]string{"fake": "serve"})
	f.script.add(
		callTool("c1", "search_tool_bm25", `{"query":"echo text back","limit":1}`),
		say("found"),
		say("resumed"),
	)
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	path := s.SessionFile()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	store, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sel := store.BuildContext().SelectedMCPToolNames; !slices.Equal(sel, []string{"mcp__fake__echo"}) {
		t.Fatalf("session file records the selection %v, want [mcp__fake__echo]", sel)
	}
	s2 := f.open(Options{Config: cfg, Models: reg, Store: store, NoTitle: true})
	if err := s2.Prompt(context.Background(), "again", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if got := requestTools(reqs[len(reqs)-1]); !slices.Contains(got, "mcp__fake__echo") || slices.Contains(got, "mcp__fake__fail") {
		t.Errorf("after resume the request offers %v; want mcp__fake__echo alone of the server's tools", got)
	}
}
