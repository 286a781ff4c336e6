package agentsession

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

func toolNames(tools []tool.Tool) string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Definition().Name)
	}
	return strings.Join(names, ",")
}

// TestToolsPart checks the tool set's lists: extra tools come after the
// built-ins, a collision is refused, an active set narrows what is offered
// (and the system prompt) but not All, and nil offers everything again.
func TestToolsPart(t *testing.T) {
	f := newFixture(t)
	s := f.open(Options{ToolNames: []string{"read", "find"}})
	tl := s.Tools()
	if got := toolNames(tl.Offered()); !strings.HasPrefix(got, "read,find") {
		t.Fatalf("offered %s", got)
	}
	if err := tl.SetExtra([]tool.Tool{bigTool{}}); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(tl.Offered()); !strings.HasSuffix(got, ",dump") || !strings.Contains(s.SystemPrompt(), "dump") {
		t.Fatalf("after SetExtra: offered %s", got)
	}
	if err := tl.SetExtension([]tool.Tool{bigTool{}}); err == nil || !strings.Contains(err.Error(), `tool "dump" is defined twice`) {
		t.Errorf("a second dump: %v", err)
	}
	if err := tl.SetExtension(nil); err != nil {
		t.Fatal(err)
	}
	if err := tl.SetActive([]string{"nope"}); err == nil || !strings.Contains(err.Error(), `no tool is named "nope"`) {
		t.Errorf("unknown active tool: %v", err)
	}
	if err := tl.SetActive([]string{"dump"}); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(tl.Offered()); got != "dump" {
		t.Errorf("active dump: offered %s", got)
	}
	if got := toolNames(tl.All()); !strings.HasPrefix(got, "read,find") || !strings.HasSuffix(got, ",dump") {
		t.Errorf("active dump: all %s", got)
	}
	if err := tl.SetActive(nil); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(tl.Offered()); got != toolNames(tl.All()) {
		t.Errorf("all active again: offered %s, all %s", got, toolNames(tl.All()))
	}
}

// A chosen tool list with bash also offers recipe when the project has
// tasks (omp adds it so); without bash it does not.
func TestRecipeComesWithBash(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed (make setup installs it)")
	}
	f := newFixture(t, "PATH="+os.Getenv("PATH"))
	if err := os.WriteFile(filepath.Join(f.project, "Makefile"), []byte(".PHONY: build\nbuild:\n\ttrue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(f.open(Options{ToolNames: []string{"read", "bash"}}).Tools().Offered()); !strings.HasPrefix(got, "read,bash,recipe") {
		t.Errorf("with bash: %s", got)
	}
	if got := toolNames(f.open(Options{ToolNames: []string{"read"}}).Tools().Offered()); strings.Contains(got, "recipe") {
		t.Errorf("without bash: %s", got)
	}
}
