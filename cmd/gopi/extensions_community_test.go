package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// pi-prompt-template-model (a community extension, vendored unchanged in
// core/extensions/testdata/community) through the mock LLM over RPC: its
// prompt template becomes /review; the model calls the extension's
// run-prompt tool, which queues "review the parser"; when the run ends the
// extension runs that command, which sends the template's text as the
// next user message.
func TestCommunityPromptTemplateThroughModel(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("run-prompt", `{"command":"review the parser"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("queued it")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("reviewed")}},
	)
	pkg, err := filepath.Abs(filepath.Join("..", "..", "core", "extensions", "testdata", "community", "pi-prompt-template-model"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(r.AgentDir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"prompts/review.md":          "---\ndescription: Review a change\nmodel: mock/mock-model\n---\nReview $@ carefully.\n",
		"prompt-template-model.json": `{"toolEnabled": true}`,
	} {
		if err := os.WriteFile(filepath.Join(r.AgentDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rr := startRPC(t, r, "-e", pkg)
	// A command first: the extension keeps its context for the tool.
	if resp := rr.Call("prompt", map[string]any{"message": "/prompt-tool"}); !resp.Success {
		t.Fatalf("/prompt-tool: %+v", resp)
	}
	end := rr.Expect("agent_end")
	if resp := rr.Call("prompt", map[string]any{"message": "run the review prompt on the parser"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	end()
	// The queued command runs after the first run ended: a third request.
	for deadline := time.Now().Add(30 * time.Second); len(r.Srv.Requests()) < 3 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3 (the prompt, the tool's result, the queued template)", len(reqs))
	}
	if !strings.Contains(string(reqs[1].Body), `Prompt command queued: \"review the parser\"`) {
		t.Errorf("the tool's result did not reach the model: %.400s", reqs[1].Body)
	}
	if !strings.Contains(string(reqs[2].Body), "Review the parser carefully.") {
		t.Errorf("the queued template was not sent: %.600s", reqs[2].Body)
	}
}
