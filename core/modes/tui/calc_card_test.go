package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// A calc call's card reads "[calc: first expression (N calcs)]" and pairs
// each expression with its result line, as omp's does.
func TestCalcCard(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	call := &ai.ToolCall{Name: "calc", Arguments: map[string]any{"calculations": []any{
		map[string]any{"expression": "6 * 9", "prefix": "", "suffix": " km"},
		map[string]any{"expression": "2 ** 10", "prefix": "", "suffix": ""},
	}}}
	card := ansi.Strip(r.card(call, []ai.Content{&ai.TextContent{Text: "54 km\n1024"}}, nil, false))
	for _, want := range []string{"[calc: 6 * 9 (2 calcs)]", "6 * 9 = 54 km", "2 ** 10 = 1024"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
}
