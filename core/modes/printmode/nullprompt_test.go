package printmode_test

import (
	"testing"

	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// TestNullPromptSendsNoSystemPrompt: with NULL_PROMPT=true the request the
// mock LLM receives has no system prompt; with any other value (here "1")
// it has gopi's.
func TestNullPromptSendsNoSystemPrompt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		value      string
		wantSystem bool
	}{{"true", false}, {"1", true}} {
		r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hello")}})
		r.Environ = append(r.Environ, "NULL_PROMPT="+c.value)
		out, stderr, code := runPrint(t, r, printmode.Text, false, "say hello")
		if code != 0 || out != "hello\n" {
			t.Fatalf("NULL_PROMPT=%s: exit %d, stdout %q, stderr %q", c.value, code, out, stderr)
		}
		reqs := r.Srv.Requests()
		if len(reqs) != 1 {
			t.Fatalf("NULL_PROMPT=%s: %d requests", c.value, len(reqs))
		}
		body := reqs[0].JSON()
		if _, has := body["system"]; has != c.wantSystem {
			t.Fatalf("NULL_PROMPT=%s: request has a system prompt: %v, want %v (%v)", c.value, has, c.wantSystem, body["system"])
		}
	}
}
