package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// retry.maxRetries 0 in the settings means no retry: an overloaded server
// fails the run at its first answer, with no retry announced.
func TestPrintModeZeroMaxRetries(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Status: 503, ErrorMessage: "upstream overloaded"},
		mockllm.Turn{Blocks: []mockllm.Block{text("a retry would get this")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("retry:\n  maxRetries: 0\n  baseDelayMs: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hello")
	if code != 1 || stdout != "" || strings.Contains(stderr, "retry") || !strings.Contains(stderr, "upstream overloaded") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if n := len(r.Srv.Requests()); n != 1 {
		t.Fatalf("%d requests: the failure was retried", n)
	}
}
