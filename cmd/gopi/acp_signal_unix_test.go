//go:build unix

package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// An editor stops gopi acp with SIGTERM: the running prompt is answered
// "cancelled", the sessions close and the conversation so far is in the
// session file. SIGTERM used to kill gopi acp at once, losing the session
// of a first prompt.
func TestACPTermSignalKeepsSession(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("partial answer that never ends")}, ChunkSize: 8, StallAfterDeltas: 2})
	p := startACP(t, r, "acp", "--model", "mock/mock-model", "--no-title")
	frames, done, errb := p.frames, p.done, p.stderr
	send := p.send
	await := func(id int) map[string]any { m, _ := p.await(id); return m }
	send(1, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	await(1)
	send(2, "session/new", map[string]any{"cwd": r.Project, "mcpServers": []any{}})
	res, _ := await(2)["result"].(map[string]any)
	send(3, "session/prompt", map[string]any{"sessionId": res["sessionId"], "prompt": []any{map[string]any{"type": "text", "text": "hello"}}})
	// Wait for the first streamed chunk: the run is under way.
	for m := range frames {
		if m["method"] == "session/update" {
			break
		}
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if resp := await(3); fmt.Sprint(resp["result"]) != "map[stopReason:cancelled]" {
		t.Fatalf("prompt answered %v", resp)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end gopi acp")
	}
	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v; stderr:\n%s", files, errb.String())
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), `"text":"hello"`) || !strings.Contains(string(data), "partial answer") {
		t.Fatalf("session file lacks the prompt or the partial answer:\n%s", data)
	}
}
