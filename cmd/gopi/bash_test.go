package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
)

// RPC bash runs the user's command in the session's shell and answers
// with omp's BashResult; abort_bash stops a command in progress; both are
// recorded as bash executions.
func TestRPCBash(t *testing.T) {
	r := newAgentRig(t)
	r.environ = append(r.environ, shelltest.Mark(t))
	rr := startRPC(t, r)
	resp := rr.call("bash", map[string]any{"command": "cd /tmp && echo hi; echo err >&2; (exit 2)"})
	var res map[string]any
	if err := json.Unmarshal(resp.Data, &res); err != nil || !resp.Success {
		t.Fatal(resp, err)
	}
	want := map[string]any{"output": "hi\nerr\n", "exitCode": 2.0, "cancelled": false, "truncated": false, "totalLines": 2.0, "totalBytes": 7.0, "outputLines": 2.0, "outputBytes": 7.0}
	if mustMarshal(t, res) != mustMarshal(t, want) {
		t.Fatalf("%s", resp.Data)
	}
	if resp := rr.call("bash", map[string]any{}); resp.Success || !strings.Contains(resp.Error, `"command" is required`) {
		t.Fatal(resp)
	}
	// The shell persists (the cd above); abort_bash ends a long command.
	done := make(chan []byte)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		r, _ := rr.c.Call(ctx, "bash", map[string]any{"command": "pwd; sleep 60"})
		done <- r.Data
	}()
	time.Sleep(300 * time.Millisecond)
	if resp := rr.call("abort_bash", nil); !resp.Success {
		t.Fatal(resp)
	}
	select {
	case data := <-done:
		res = nil
		if err := json.Unmarshal(data, &res); err != nil || res["cancelled"] != true || res["exitCode"] != nil || res["output"] != "/tmp\n" {
			t.Fatalf("%s", data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("abort_bash did not stop the command")
	}
	msgs := rr.call("get_messages", nil)
	if n := strings.Count(string(msgs.Data), `"role":"bashExecution"`); n != 2 {
		t.Fatalf("%d bash executions in %s", n, msgs.Data)
	}
	rr.stdin.Close()
	if code := <-rr.exit; code != 0 {
		t.Fatal(code)
	}
}
