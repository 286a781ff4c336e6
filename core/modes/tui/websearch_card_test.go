package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// A web search that failed or was cancelled comes back as text with the
// failure in its details (as omp's): its card is marked failed, not ✓.
func TestWebSearchFailureCard(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	call := &ai.ToolCall{Name: "web_search", Arguments: map[string]any{"query": "stall"}}
	txt := []ai.Content{&ai.TextContent{Text: "Error: SearXNG search was cancelled"}}
	failed := ansi.Strip(r.card(call, txt, map[string]any{"response": map[string]any{"provider": "none"}, "error": "SearXNG search was cancelled"}, false))
	if !strings.Contains(failed, "✗") || strings.Contains(failed, "✓") {
		t.Errorf("failed search drawn as:\n%s", failed)
	}
	ok := ansi.Strip(r.card(call, []ai.Content{&ai.TextContent{Text: "1 result"}}, map[string]any{"response": map[string]any{"provider": "searxng"}}, false))
	if !strings.Contains(ok, "✓") {
		t.Errorf("good search drawn as:\n%s", ok)
	}
}
