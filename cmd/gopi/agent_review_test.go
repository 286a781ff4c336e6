package main

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// "-r" without an id lists the sessions, as "--resume" does, wherever it
// stands among the flags.
func TestShortResumeWithoutIDLists(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hello")}})
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "first message"); code != 0 {
		t.Fatalf("first run: %d %s", code, stderr)
	}
	for _, args := range [][]string{{"-r"}, {"--resume"}, {"-r", "-p"}, {"-p", "-r"}} {
		out, stderr, code := r.run("", args...)
		if code != 0 || !strings.Contains(out, "first message") {
			t.Errorf("gopi %v: exit %d, stdout %q, stderr %q; want the session list", args, code, out, stderr)
		}
	}
}
