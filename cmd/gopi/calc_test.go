package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// calc is offered only with calc.enabled, and the model gets its lines.
func TestAgentCalc(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("no calc")}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("calc", map[string]any{"calculations": []map[string]any{
			{"expression": "6 * 9", "prefix": "", "suffix": " km"},
			{"expression": "2 ** 3 ** 2", "prefix": "= ", "suffix": ""},
		}})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("54 km")}},
	)
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi"); code != 0 || out != "no calc\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if strings.Contains(string(r.Srv.Requests()[0].Body), `"name":"calc"`) {
		t.Fatal("calc offered with the default settings (calc.enabled is off by default)")
	}
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("calc:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "how far?"); code != 0 || out != "54 km\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if !strings.Contains(string(r.Srv.Requests()[1].Body), `"name":"calc"`) {
		t.Fatal("calc not offered with calc.enabled")
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(2)); !strings.Contains(msgs, `54 km\n= 512`) {
		t.Fatalf("the calc result did not reach the model: %s", msgs)
	}
}
