//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	r.t.Chdir(r.Project)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb strings.Builder
	env := &cliEnv{stdout: outW, stderr: &errb, stdin: inR, environ: r.Environ}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), env, []string{"acp", "--model", "mock/mock-model", "--no-title"})
		outW.Close()
	}()
	defer inW.Close()
	frames := make(chan map[string]any, 64)
	go func() {
		lines := bufio.NewScanner(outR)
		lines.Buffer(make([]byte, 1<<20), 1<<20)
		for lines.Scan() {
			var m map[string]any
			if json.Unmarshal(lines.Bytes(), &m) == nil {
				frames <- m
			}
		}
		close(frames)
	}()
	send := func(id int, method string, params any) {
		data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := fmt.Fprintf(inW, "%s\n", data); err != nil {
			t.Fatal(err)
		}
	}
	await := func(id int) map[string]any {
		for {
			select {
			case m, ok := <-frames:
				if !ok {
					t.Fatalf("stdout ended before the response to %d; stderr:\n%s", id, errb.String())
				}
				if m["id"] == float64(id) {
					return m
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no response to %d", id)
			}
		}
	}
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
