package agentsession

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/tokens"
)

// discoveryBudget is the most o200k tokens the fixed part of a request
// (system prompt and tool definitions) may take with ManyTools MCP tools
// configured and tools.discoveryMode=all.
const discoveryBudget = 3000

// requestTokens counts a request's fixed part as it is sent: the system
// prompt, and per tool its name, description and parameter schema.
func requestTokens(enc *tokens.Encoding, req *ai.Request) (prompt, tools int) {
	for _, tl := range req.Tools {
		tools += enc.Count(tl.Name) + enc.Count(tl.Description) + enc.Count(string(tl.Parameters))
	}
	return enc.Count(req.SystemPrompt), tools
}

// TestDiscoveryTokenBudget measures the first request of a session whose
// MCP server has ManyTools tools, with every tool offered and with each
// discovery mode, and fails when discovery "all" goes over
// discoveryBudget. With -v it prints the numbers bench/RESULTS.md
// quotes ("discovery:" lines).
func TestDiscoveryTokenBudget(t *testing.T) {
	t.Parallel()
	enc, err := tokens.Get(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{config.DiscoveryOff, config.DiscoveryMCPOnly, config.DiscoveryAll} {
		f := newFixture(t, keyEnv, config.EnvTrustProject+"=1")
		f.settings("tools:\n  discoveryMode: " + mode + "\n")
		f.writeMCP(map[string]string{"many": "many"})
		f.script.add(say("ok"))
		reg := f.registry(f.config())
		s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
		if err := s.Prompt(context.Background(), "hi", PromptOptions{}); err != nil {
			t.Fatal(err)
		}
		req := f.script.requests()[0]
		mcpTools := 0
		for _, tl := range req.Tools {
			if strings.HasPrefix(tl.Name, "mcp__many__") {
				mcpTools++
			}
		}
		prompt, tools := requestTokens(enc, req)
		t.Log(fmt.Sprintf("discovery: mode=%s tools_offered=%d mcp_offered=%d prompt=%d tools=%d total=%d",
			mode, len(req.Tools), mcpTools, prompt, tools, prompt+tools))
		switch mode {
		case config.DiscoveryOff:
			if mcpTools != mcptest.ManyTools {
				t.Errorf("off offers %d MCP tools; want %d", mcpTools, mcptest.ManyTools)
			}
		case config.DiscoveryAll:
			if mcpTools != 0 || prompt+tools > discoveryBudget {
				t.Errorf("discovery all: %d MCP tools offered, %d tokens (budget %d)", mcpTools, prompt+tools, discoveryBudget)
			}
		}
	}
}
