package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/golden"
)

// Browser cards as they are drawn: open with the browser kind and URL,
// run with the code, the output and each screenshot's size and file,
// close, a spawned app, and a failed run in red (golden, colours
// stripped). The details come as a session file holds them (decoded
// JSON), as the live ones marshal to the same.
func TestBrowserCards(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	txt := func(s string) []ai.Content { return []ai.Content{&ai.TextContent{Text: s}} }
	img := &ai.ImageContent{Data: "iVBORw0KGgo=", MIMEType: "image/png"}
	cards := []string{
		r.card(&ai.ToolCall{Name: "browser", Arguments: map[string]any{"action": "open", "url": "http://127.0.0.1:8080/docs"}},
			txt("Opened tab \"main\" on headless browser (hidden)\nURL: http://127.0.0.1:8080/docs\nTitle: Docs"),
			map[string]any{"action": "open", "name": "main", "browser": "headless", "url": "http://127.0.0.1:8080/docs"}, false),
		r.card(&ai.ToolCall{Name: "browser", Arguments: map[string]any{"action": "run", "name": "docs",
			"code": "const obs = await tab.observe();\nawait tab.screenshot();\nreturn obs.elements.length;\n"}},
			append(txt("Screenshot captured\nFormat: image/png (80.10 KB)\nDimensions: 1024x576"), img, &ai.TextContent{Text: "12"}),
			map[string]any{"action": "run", "name": "docs", "browser": "headless", "url": "http://127.0.0.1:8080/docs",
				"screenshots": []any{map[string]any{"dest": "/tmp/gopi-sshots-1.png", "width": 1024, "height": 576}}}, false),
		r.card(&ai.ToolCall{Name: "browser", Arguments: map[string]any{"action": "open", "name": "app",
			"app": map[string]any{"path": "/opt/Editor/editor"}}},
			txt("Opened tab \"app\" on spawned /opt/Editor/editor (pid 4242)\nURL: app://index.html\nTitle: Editor"),
			map[string]any{"action": "open", "name": "app", "browser": "spawned", "url": "app://index.html"}, false),
		r.card(&ai.ToolCall{Name: "browser", Arguments: map[string]any{"action": "run", "code": "await tab.click('#missing')"}},
			txt("Browser code execution timed out after 30000ms"), nil, true),
		r.card(&ai.ToolCall{Name: "browser", Arguments: map[string]any{"action": "close", "all": true, "kill": true}},
			txt("Closed 2 tab(s)"), map[string]any{"action": "close", "name": "main"}, false),
	}
	got := ansi.Strip(strings.Join(cards, "\n\n")) + "\n"
	golden.Check(t, filepath.Join("testdata", "browser-cards.golden"), got)
}
