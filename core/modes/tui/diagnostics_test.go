package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// An edit's card shows the diff, then the language servers' report from
// the details, not the report's text twice.
func TestCardShowsDiagnostics(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	details := json.RawMessage(`{"diff":"-a\n+b\n","diagnostics":{"server":"gopls","messages":["main.go:4:2 [error] undefined: x","main.go:9:1 [warning] unused"],"summary":"1 error(s), 1 warning(s)","errored":true}}`)
	text := "main.go:\n+4xy|b\n\nLSP Diagnostics (1 error(s), 1 warning(s)):\n# main.go\n  4:2 [error] undefined: x\n  9:1 [warning] unused"
	card := ansi.Strip(r.card(&ai.ToolCall{Name: "edit", Arguments: map[string]any{"path": "main.go"}}, []ai.Content{&ai.TextContent{Text: text}}, details, false))
	want := "  -a\n  +b\n  LSP: 1 error(s), 1 warning(s)\n  main.go:4:2 [error] undefined: x\n  main.go:9:1 [warning] unused"
	if !strings.HasSuffix(card, want) {
		t.Errorf("card:\n%s\nwant it to end with:\n%s", card, want)
	}
	// A write (no diff): its own line, then the report; a file left clean.
	details = json.RawMessage(`{"path":"/w/a.go","diagnostics":{"messages":[],"summary":"OK","errored":false,"cleared":["a.go"]}}`)
	card = ansi.Strip(r.card(&ai.ToolCall{Name: "write", Arguments: map[string]any{"path": "a.go"}}, []ai.Content{&ai.TextContent{Text: "Updated a.go (3 lines)\n\nLSP Diagnostics: no issues left in a.go."}}, details, false))
	if !strings.HasSuffix(card, "\n  Updated a.go (3 lines)\n  LSP: no issues left in a.go") {
		t.Errorf("write card:\n%s", card)
	}
}
