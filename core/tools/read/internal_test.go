package read

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

func TestReadAgentOutput(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	if res := call(t, env, "agent://0-Scan"); !res.IsError || res.FirstText() != "No session - agent outputs unavailable" {
		t.Fatalf("no store: %+v", res.FirstText())
	}
	dir := filepath.Join(t.TempDir(), "sess")
	env.Artifacts = artifact.NewStore(dir)
	if res := call(t, env, "agent://0-Scan"); !res.IsError || res.FirstText() != "No artifacts directory found" {
		t.Fatalf("no dir: %q", res.FirstText())
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = "finding " + string(rune('a'+i%26))
	}
	if err := os.WriteFile(env.Artifacts.AgentOutputPath("0-Scan"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, env, "agent://0-Scan:3-4")
	if res.IsError || !strings.Contains(res.FirstText(), "finding c") || !strings.Contains(res.FirstText(), "finding d") || strings.Contains(res.FirstText(), "finding j") {
		t.Fatalf("range: %q", res.FirstText())
	}
	if res := call(t, env, "agent://1-Other"); !res.IsError || res.FirstText() != "Not found: 1-Other\nAvailable: 0-Scan" {
		t.Fatalf("unknown: %q", res.FirstText())
	}
	if res := call(t, env, "memory://x"); !res.IsError || !strings.Contains(res.FirstText(), "agent://<id>") {
		t.Fatalf("other scheme: %q", res.FirstText())
	}
}
