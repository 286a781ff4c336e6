package rpc_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// compact over RPC answers with the compaction, as omp does (data:
// summary, shortSummary, firstKeptEntryId, tokensBefore, details,
// preserveData); the next prompt's request starts with the summary. A
// session too small says so; an abort cancels a compaction in progress and
// leaves the session as it was.
func TestRPCCompact(t *testing.T) {
	t.Parallel()
	answer := func(s string, input int) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{text(s)}, Usage: &mockllm.Usage{Input: input, Output: 5}}
	}
	long := strings.Repeat(" word", 400)
	r := newAgentRig(t,
		answer("first", 500),
		answer("second", 900),
		mockllm.Turn{Match: "Write working notes", Blocks: []mockllm.Block{text("## Objective\nCount words.")}},
		mockllm.Turn{Match: "two or three sentences", Blocks: []mockllm.Block{text("I counted words.")}},
		answer("after", 300),
		answer("fourth", 400),
		// The second compaction stalls until the abort.
		mockllm.Turn{Match: "previous-summary", Blocks: []mockllm.Block{text("never")}, StallAfter: 1},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("compaction:\n  keepRecentTokens: 200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rr := startRPC(t, r)
	if resp := rr.Call("compact", nil); resp.Success || resp.Error != "Nothing to compact (session too small)" {
		t.Fatalf("empty session: %+v", resp)
	}
	for _, p := range []string{"one" + long, "two" + long} {
		end := rr.Expect("agent_end")
		rr.Call("prompt", map[string]any{"message": p})
		end()
	}
	resp := rr.Call("compact", map[string]any{"customInstructions": "the counting"})
	if !resp.Success {
		t.Fatalf("compact: %+v", resp)
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(resp.Data, &data); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range data {
		keys = append(keys, k)
	}
	if len(data) != 6 || string(data["summary"]) != `"## Objective\nCount words."` || string(data["shortSummary"]) != `"I counted words."` ||
		string(data["tokensBefore"]) != "905" || string(data["details"]) != `{"readFiles":[],"modifiedFiles":[]}` || string(data["preserveData"]) != "{}" {
		t.Errorf("data %s (keys %v)", resp.Data, keys)
	}
	hist := r.Srv.Requests()[2]
	if !strings.Contains(string(hist.Body), "the counting") {
		t.Error("the custom instructions are not in the summary request")
	}

	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "three" + long})
	end()
	reqs := r.Srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if i, j := strings.Index(body, "Earlier parts of this conversation"), strings.Index(body, "two word"); i < 0 || j < i || strings.Contains(body, "one word") {
		t.Errorf("the request after compaction: %.400s", body)
	}
	end = rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "four" + long})
	end()
	reqs = r.Srv.Requests()

	// Abort a compaction in progress (abort does not wait for it):
	// "Compaction cancelled", nothing stored.
	before, _ := os.ReadFile(r.SessionFiles()[0])
	done := make(chan *rpcclient.Response, 1)
	go func() {
		resp, _ := rr.C.Call(context.Background(), "compact", nil)
		done <- resp
	}()
	testwait.Until(t, "the compaction to call the model", func() bool { return len(r.Srv.Requests()) >= len(reqs)+1 })
	if resp := rr.Call("abort", nil); !resp.Success {
		t.Fatalf("abort: %+v", resp)
	}
	if resp := <-done; resp == nil || resp.Success || resp.Error != "Compaction cancelled" {
		t.Fatalf("aborted compact: %+v", resp)
	}
	if last := r.Srv.Requests()[len(reqs)]; !strings.Contains(string(last.Body), "previous-summary") {
		t.Errorf("the aborted request was not the update of the summary: %.300s", last.Body)
	}
	after, _ := os.ReadFile(r.SessionFiles()[0])
	if string(after) != string(before) {
		t.Error("the session changed")
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A summary answered without text (thinking cut off at the output limit)
// makes compact fail with a message saying so; the session file and the
// messages are as they were.
func TestRPCCompactEmptySummary(t *testing.T) {
	t.Parallel()
	answer := func(s string, input int) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{text(s)}, Usage: &mockllm.Usage{Input: input, Output: 5}}
	}
	long := strings.Repeat(" word", 600)
	r := newAgentRig(t,
		answer("a1", 800),
		answer("a2", 1600),
		mockllm.Turn{Match: "Write working notes", Blocks: []mockllm.Block{mockllm.Thinking("hmm, let me think", "sig")}, Stop: mockllm.StopLength},
		// Never asked for: the compaction ends at the empty summary.
		mockllm.Turn{Match: "two or three sentences", Blocks: []mockllm.Block{text("Recap.")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("compaction:\n  keepRecentTokens: 300\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rr := startRPC(t, r)
	for _, p := range []string{"q1" + long, "q2" + long} {
		end := rr.Expect("agent_end")
		rr.Call("prompt", map[string]any{"message": p})
		end()
	}
	before, _ := os.ReadFile(r.SessionFiles()[0])
	msgs := rr.Call("get_messages", nil)
	resp := rr.Call("compact", nil)
	if resp.Success || !strings.HasPrefix(resp.Error, "Summarization failed: the model wrote an empty summary, so nothing was compacted; try again") {
		t.Errorf("compact: %+v", resp)
	}
	after, _ := os.ReadFile(r.SessionFiles()[0])
	if string(after) != string(before) || strings.Contains(string(after), `"type":"compaction"`) {
		t.Error("the session changed")
	}
	if again := rr.Call("get_messages", nil); string(again.Data) != string(msgs.Data) {
		t.Errorf("messages changed:\n%.300s\nwas\n%.300s", again.Data, msgs.Data)
	}
	if n := r.Srv.Remaining(); n != 1 {
		t.Errorf("%d turns left, want the recap's", n)
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
}
