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
// narrowing as a name is typed, the resume command printed on exit; a
// model chosen with /model NAME, then with the /model picker for the
// default role at a thinking level and for the smol role, is what the next
// start uses; /settings opens a setting's list of options and saves the
// choice.
func TestTUIDiscoveryInTmux(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("Hello from the mock.")}})
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        name: Mock\n      - id: second-model\n        name: Second\n        reasoning: true\n", r.Srv.URL())
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 80, 24, r.Project, r.Environ, "--no-title", "--model", "mock/mock-model")
	x.waitFor("Welcome to gopi", "Tips", "LSP Servers", "Recent sessions", "Message gopi")

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

	// The picker: second-model as the default at "high", mock-model as smol.
	x.typ("/model")
	x.keys("Enter")
	x.waitIn("the picker", x.screen, "enter: set a role")
	x.typ("second")
	x.keys("Enter")
	x.waitIn("the roles", x.screen, "Action for: mock/second-model", "Set as SMOL (Fast)")
	x.keys("Enter")
	x.waitIn("the levels", x.screen, "Thinking for: Default (second-model)", "xhigh")
	for range 5 {
		x.keys("Down")
	}
	x.keys("Enter")
	x.waitIn("the badge", x.screen, "[DEFAULT] (high)")
	x.typ("mock-model")
	x.keys("Enter")
	x.waitIn("the roles", x.screen, "Action for: mock/mock-model")
	x.keys("Down")
	x.keys("Enter")
	x.waitIn("the levels", x.screen, "Thinking for: Fast (mock-model)")
	x.keys("Enter")
	x.waitIn("the badge", x.screen, "[SMOL] (inherit)")
	x.keys("Escape")
	x.waitGone("[SMOL] (inherit)")
	x.waitIn("the footer", x.screen, "mock/second-model · high")

	// /settings: a setting with options opens their list.
	x.typ("/settings")
	x.keys("Enter")
	x.waitIn("the settings", x.screen, "enter/space change")
	x.keys("Tab", "Tab")
	x.waitIn("the Interaction tab", x.screen, "Completion rows")
	for range 5 {
		x.keys("Down")
	}
	x.keys("Enter")
	x.waitIn("the list of options", x.screen, "❯ • 5 items", "20 items", "enter choose · esc back")
	x.keys("Down")
	x.keys("Enter")
	x.waitIn("the saved choice", x.screen, "Completion rows: 7 items (saved")
	x.keys("Escape")
	x.waitGone("Completion rows")
	x.keys("C-d")
	x.waitFor("Resume this session with gopi --resume ", "EXITED 0")

	// The next start (a new session) uses the model chosen last.
	y := startTmux(t, 80, 24, r.Project, r.Environ, "--no-title")
	y.waitFor("Welcome to gopi", "hello (")
	y.waitIn("the footer", y.screen, "mock/second-model · high")
	y.keys("C-d")
	y.waitFor("EXITED 0")
	b, err := os.ReadFile(filepath.Join(r.AgentDir, "config.yml"))
	if err != nil || !strings.Contains(string(b), "default: mock/second-model:high") || !strings.Contains(string(b), "smol: mock/mock-model\n") ||
		!strings.Contains(string(b), "autocompleteMaxVisible: 7") {
		t.Fatalf("config.yml: %v\n%s", err, b)
	}
}
