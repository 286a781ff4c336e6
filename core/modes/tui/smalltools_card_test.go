package tui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// A recipe card shows its op and the end of the output, as bash's does;
// a render_mermaid card shows the whole drawing, not its first lines.
func TestSmallToolCards(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	var out []string
	for i := 1; i <= 15; i++ {
		out = append(out, "line "+strconv.Itoa(i))
	}
	text := strings.Join(out, "\n")
	card := ansi.Strip(r.card(&ai.ToolCall{Name: "recipe", Arguments: map[string]any{"op": "test -v"}}, []ai.Content{&ai.TextContent{Text: text}}, nil, false))
	if !strings.Contains(card, "[recipe: test -v]") || !strings.Contains(card, "line 15") || strings.Contains(card, "line 5\n") {
		t.Fatalf("recipe card:\n%s", card)
	}
	card = ansi.Strip(r.card(&ai.ToolCall{Name: "render_mermaid", Arguments: map[string]any{"mermaid": "graph TD; A-->B"}}, []ai.Content{&ai.TextContent{Text: text}}, nil, false))
	if !strings.Contains(card, "line 1\n") || !strings.Contains(card, "line 15") {
		t.Fatalf("render_mermaid card:\n%s", card)
	}
}
