package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Discovery on a real terminal: the welcome block at start, the "/" list
// narrowing as a name is typed, the resume command printed on exit; and a
// model chosen with /model is the model of the next start.
func TestTUIDiscoveryInTmux(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("Hello from the mock.")}})
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        name: Mock\n      - id: second-model\n        name: Second\n", r.Srv.URL())
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 80, 24, r.Project, r.Environ, "--no-title", "--model", "mock/mock-model")
	x.waitFor("Welcome to gopi", "Tips", "Recent sessions", "Message gopi")

	x.typ("/")
	x.waitIn("the screen", x.screen, "❯ model", "pick the model", "(1/")
	x.typ("thi")
	x.waitIn("the screen", x.screen, "❯ thinking", "set the thinking level")
	if strings.Contains(x.screen(), "pick the model") {
		t.Fatalf("the list does not narrow:\n%s", x.screen())
	}
	x.keys("Escape")
	x.waitGone("❯ thinking") // a key right after Esc would read as Alt+key
	x.keys("C-c")
	x.waitGone("/thi")

	x.typ("hello")
	x.keys("Enter")
	x.waitFor("Hello from the mock.")
	x.typ("/model mock/second-model")
	x.keys("Enter")
	x.waitIn("the footer", x.screen, "mock/second-model")
	x.keys("C-d")
	x.waitFor("Resume this session with gopi --resume ", "EXITED 0")

	// The next start (a new session) uses the model chosen last.
	y := startTmux(t, 80, 24, r.Project, r.Environ, "--no-title")
	y.waitFor("Welcome to gopi", "hello (")
	y.waitIn("the footer", y.screen, "mock/second-model")
	y.keys("C-d")
	y.waitFor("EXITED 0")
	b, err := os.ReadFile(filepath.Join(r.AgentDir, "config.yml"))
	if err != nil || !strings.Contains(string(b), "default: mock/second-model") {
		t.Fatalf("config.yml: %v\n%s", err, b)
	}
}
