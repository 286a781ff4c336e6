package agentsession

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mcptest"
)

// writeGemini writes a Gemini manifest extension under root/<dir>.
func writeGemini(t *testing.T, root, dir string, manifest map[string]any, files map[string]string) {
	t.Helper()
	d := filepath.Join(root, dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(manifest)
	if manifest == nil {
		data = []byte("{ not json")
	}
	if err := os.WriteFile(filepath.Join(d, "gemini-extension.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(d, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A user's Gemini manifest extension starts its MCP server (the model
// calls its tool through the mock LLM), puts its context file into the
// system prompt, and leaves out the tools its excludeTools names: an MCP
// tool by its own name and a built-in by Gemini CLI's name. A manifest
// that is not JSON is skipped with a warning naming it.
func TestGeminiManifestExtension(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	cmd, args := mcptest.FakeServer()
	root := filepath.Join(f.home, ".gemini", "extensions")
	writeGemini(t, root, "hello-ext", map[string]any{
		"name":            "hello",
		"version":         "1.0.0",
		"contextFileName": "HELLO.md",
		"excludeTools":    []string{"fail", "write_file", "run_shell_command(rm -rf)"},
		"mcpServers": map[string]any{
			"gem": map[string]any{"command": cmd, "args": args, "cwd": "${extensionPath}", "env": map[string]string{mcptest.EnvMode: "serve"}},
		},
	}, map[string]string{"HELLO.md": "Always greet the user in Latin."})
	writeGemini(t, root, "broken", nil, nil)
	f.script.add(
		callTool("c1", "mcp__gem__echo", `{"text":"salve"}`),
		say("done"),
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	first := requestTools(reqs[0])
	if !slices.Contains(first, "mcp__gem__echo") {
		t.Fatalf("the manifest's server tool is not offered: %v", first)
	}
	for _, gone := range []string{"mcp__gem__fail", "write"} {
		if slices.Contains(first, gone) {
			t.Errorf("excludeTools did not leave out %s: %v", gone, first)
		}
	}
	if !slices.Contains(first, "bash") {
		t.Errorf("a command-limiting exclusion took bash away: %v", first)
	}
	if got := toolResultTexts(reqs[1].Messages); len(got) != 1 || got[0] != "echo: salve" {
		t.Errorf("tool results = %q", got)
	}
	if !strings.Contains(reqs[0].SystemPrompt, "Always greet the user in Latin.") {
		t.Error("the extension's context file is not in the system prompt")
	}
	var warned bool
	for _, w := range s.res.warnings {
		warned = warned || strings.Contains(w.Error(), "Invalid JSON in "+filepath.Join(root, "broken", "gemini-extension.json"))
	}
	if !warned {
		t.Errorf("no warning for the broken manifest: %v", s.res.warnings)
	}
}

// With NoGeminiExtensions (--no-extensions) nothing of a manifest is used.
func TestGeminiManifestOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	cmd, args := mcptest.FakeServer()
	writeGemini(t, filepath.Join(f.home, ".gemini", "extensions"), "x", map[string]any{
		"excludeTools": []string{"bash"},
		"mcpServers":   map[string]any{"gem": map[string]any{"command": cmd, "args": args, "env": map[string]string{mcptest.EnvMode: "serve"}}},
	}, nil)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoGeminiExtensions: true})
	var names []string
	for _, tl := range s.Tools().Offered() {
		names = append(names, tl.Definition().Name)
	}
	if slices.Contains(names, "mcp__gem__echo") || !slices.Contains(names, "bash") {
		t.Errorf("tools with manifests off: %v", names)
	}
}
