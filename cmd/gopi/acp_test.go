package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// gopi acp speaks JSON-RPC lines on stdin and stdout: initialize,
// session/new and a prompt whose answer streams as session/update
// notifications before the response.
func TestACPCommandWire(t *testing.T) {
	t.Run("acp", func(t *testing.T) { acpWire(t, "acp", "--model", "mock/mock-model") })
	// omp's spelling of the same.
	t.Run("mode", func(t *testing.T) { acpWire(t, "--mode", "acp", "--model", "mock/mock-model") })
}

// acpPeer is an editor's end of `gopi acp` run in process: send writes a
// request, frames carries every JSON line gopi writes, done its exit status.
type acpPeer struct {
	t      *testing.T
	in     *io.PipeWriter
	frames chan map[string]any
	done   chan int
	stderr *strings.Builder
}

// startACP runs gopi with args (an acp command line) in the rig's project.
func startACP(t *testing.T, r *agentRig, args ...string) *acpPeer {
	t.Helper()
	r.t.Chdir(r.Project)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &acpPeer{t: t, in: inW, frames: make(chan map[string]any, 64), done: make(chan int, 1), stderr: &strings.Builder{}}
	env := &cliEnv{stdout: outW, stderr: p.stderr, stdin: inR, environ: r.Environ}
	go func() {
		p.done <- run(context.Background(), env, args)
		outW.Close()
	}()
	go func() {
		lines := bufio.NewScanner(outR)
		lines.Buffer(make([]byte, 1<<20), 1<<20)
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Errorf("not JSON on stdout: %q", lines.Text())
				continue
			}
			p.frames <- m
		}
		close(p.frames)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

// send writes one JSON-RPC request.
func (p *acpPeer) send(id int, method string, params any) {
	p.t.Helper()
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := fmt.Fprintf(p.in, "%s\n", data); err != nil {
		p.t.Fatal(err)
	}
}

// await reads frames until the response to id, returning it and the
// notifications before it.
func (p *acpPeer) await(id int) (resp map[string]any, notes []map[string]any) {
	p.t.Helper()
	for {
		select {
		case m, ok := <-p.frames:
			if !ok {
				p.t.Fatalf("stdout ended before the response to %d; stderr:\n%s", id, p.stderr.String())
			}
			if m["id"] == float64(id) {
				return m, notes
			}
			notes = append(notes, m)
		case <-time.After(10 * time.Second):
			p.t.Fatalf("no response to %d", id)
		}
	}
}

func acpWire(t *testing.T, args ...string) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Hi there.")}})
	p := startACP(t, r, args...)
	send, await, inW, done, errb := p.send, p.await, p.in, p.done, p.stderr
	send(1, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	resp, _ := await(1)
	if res, _ := resp["result"].(map[string]any); res == nil || res["protocolVersion"] != float64(1) || !strings.Contains(agentrig.MustMarshal(t, res), `"loadSession":true`) {
		t.Fatalf("initialize: %v", resp)
	}
	send(2, "session/new", map[string]any{"cwd": r.Project, "mcpServers": []any{}})
	resp, _ = await(2)
	res, _ := resp["result"].(map[string]any)
	id, _ := res["sessionId"].(string)
	if id == "" {
		t.Fatalf("session/new: %v", resp)
	}
	send(3, "session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "hello"}}})
	resp, notes := await(3)
	if res, _ := resp["result"].(map[string]any); res == nil || res["stopReason"] != "end_turn" {
		t.Fatalf("session/prompt: %v", resp)
	}
	var text strings.Builder
	for _, n := range notes {
		p, _ := n["params"].(map[string]any)
		u, _ := p["update"].(map[string]any)
		if n["method"] == "session/update" && u["sessionUpdate"] == "agent_message_chunk" {
			c, _ := u["content"].(map[string]any)
			text.WriteString(fmt.Sprint(c["text"]))
		}
	}
	if text.String() != "Hi there." {
		t.Fatalf("streamed %q from %v", text.String(), notes)
	}
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("gopi acp did not exit when stdin closed")
	}
	if len(r.SessionFiles()) != 1 {
		t.Fatalf("session files %v", r.SessionFiles())
	}
}

func TestACPCommandFlags(t *testing.T) {
	r := newAgentRig(t)
	out, _, code := r.run("", "acp", "--help")
	if code != 0 || !strings.Contains(out, `"agent_servers"`) {
		t.Fatalf("help: %d %s", code, out)
	}
	if _, stderr, code := r.run("", "acp", "--thinking", "lots"); code != 2 || !strings.Contains(stderr, "unknown --thinking level") {
		t.Fatalf("bad thinking: %d %s", code, stderr)
	}
	if _, stderr, code := r.run("", "acp", "hello"); code != 2 || !strings.Contains(stderr, "unexpected argument") {
		t.Fatalf("argument: %d %s", code, stderr)
	}
}
