package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// writeFilesScript is the run, smaller (four 60 KB files for a
// 40k window rather than three of 200 KB for 200k): the model writes the
// files and answers, on a server that reports no usage (gopi estimates
// it, and the estimate is over the window); the compaction after the
// answer writes its summaries, and the auto-continue turn finds nothing
// left to do.
func writeFilesScript() []mockllm.Turn {
	big := strings.Repeat("lorem ipsum dolor sit amet ", 60_000/27)
	var turns []mockllm.Turn
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		turns = append(turns, mockllm.Turn{NoUsage: true, Blocks: []mockllm.Block{agentrig.ToolCall("write", map[string]any{"path": name, "content": big})}})
	}
	return append(turns,
		mockllm.Turn{NoUsage: true, Blocks: []mockllm.Block{text("The files are written.")}},
		// The summaries: the turn's notes (the whole run is one turn),
		// the history's when there is any, the recap.
		mockllm.Turn{Match: "Reply with the notes only", Blocks: []mockllm.Block{text("## Request\nWrite four files.")}},
		mockllm.Turn{Match: "Reply with the notes only", Blocks: []mockllm.Block{text("## Objective\nWrite four files.")}},
		mockllm.Turn{Match: "two or three sentences", Blocks: []mockllm.Block{text("I wrote four files.")}},
		mockllm.Turn{Match: "was just compacted", NoUsage: true, Blocks: []mockllm.Block{text("Nothing is left to do.")}},
	)
}

// newCompactRig is a rig playing writeFilesScript with a 40k window,
// compactions that keep 4k tokens and retries 1 ms apart.
func newCompactRig(t *testing.T) *agentRig {
	r := newAgentRig(t, writeFilesScript()...)
	r.SetModel("anthropic-messages", 40_000)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("retry:\n  baseDelayMs: 1\ncompaction:\n  keepRecentTokens: 4000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// checkAutoContinued checks that the last request was the auto-continue
// turn and that none failed (each request played a scripted turn).
func checkAutoContinued(t *testing.T, r *agentRig) {
	t.Helper()
	reqs := r.Srv.Requests()
	if len(reqs) < 8 || !strings.Contains(string(reqs[len(reqs)-1].Body), "was just compacted") {
		t.Errorf("%d requests; the last is not the auto-continue turn", len(reqs))
	}
	if played := len(writeFilesScript()) - r.Srv.Remaining(); played != len(reqs) {
		t.Errorf("%d requests, %d scripted turns played: a request found no turn", len(reqs), played)
	}
}

// A final answer followed by an automatic compaction is the run's answer:
// exit 0 and the answer on stdout (the auto-continue turn that found
// nothing to do does not replace it). The context was estimated, so the
// compaction is the threshold one, not an overflow recovery.
func TestPrintModeAnswerSurvivesCompactionAfterIt(t *testing.T) {
	r := newCompactRig(t)
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "write a.txt to d.txt")
	if code != 0 || stdout != "The files are written.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	checkAutoContinued(t, r)
	for _, name := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		if info, err := os.Stat(filepath.Join(r.Project, name)); err != nil || info.Size() < 59_000 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// When the auto-continue turn does more work (runs a tool), its answer is
// printed after the one the compaction came after.
func TestPrintModeAutoContinueThatWorks(t *testing.T) {
	turns := writeFilesScript()
	turns[len(turns)-1] = mockllm.Turn{Match: "was just compacted", NoUsage: true,
		Blocks: []mockllm.Block{agentrig.ToolCall("write", map[string]any{"path": "e.txt", "content": "e"})}}
	turns = append(turns, mockllm.Turn{NoUsage: true, Blocks: []mockllm.Block{text("I also wrote e.txt.")}})
	r := newAgentRig(t, turns...)
	r.SetModel("anthropic-messages", 40_000)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("compaction:\n  keepRecentTokens: 4000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "write a.txt to d.txt")
	if code != 0 || stdout != "The files are written.\nI also wrote e.txt.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(r.Project, "e.txt")); err != nil {
		t.Error(err)
	}
}

// The same run in --mode json: exit 0, the threshold compaction's events,
// the answer's message_end and an agent_end after the last turn.
func TestJSONModeAnswerSurvivesCompactionAfterIt(t *testing.T) {
	r := newCompactRig(t)
	stdout, stderr, code := r.run("", "--mode", "json", "--model", "mock/mock-model", "write a.txt to d.txt")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr)
	}
	var types []string
	answered := false
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev struct {
			Type    string `json:"type"`
			Reason  string `json:"reason"`
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %.200s", err, line)
		}
		switch ev.Type {
		case "auto_compaction_start":
			types = append(types, ev.Type+":"+ev.Reason)
		case "auto_compaction_end", "agent_end":
			types = append(types, ev.Type)
		case "message_end":
			if ev.Message.Role == "assistant" && strings.Contains(string(ev.Message.Content), `"text":"The files are written."`) {
				answered = true
			}
		}
	}
	if got := strings.Join(types, " "); got != "agent_end auto_compaction_start:threshold auto_compaction_end agent_end" {
		t.Errorf("events %s", got)
	}
	if !answered {
		t.Error("no message_end with the answer")
	}
}

// Over RPC the prompt is not followed by a failure response: the
// compaction ends, the auto-continue run ends with its agent_end, and
// gopi exits cleanly with nothing reported as failed.
func TestRPCAnswerSurvivesCompactionAfterIt(t *testing.T) {
	r := newCompactRig(t)
	rr := startRPC(t, r)
	compacted := rr.Expect("auto_compaction_end")
	if resp := rr.Call("prompt", map[string]any{"message": "write a.txt to d.txt"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	compacted()
	rr.Expect("agent_end")()
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
	if tr := rr.Transcript(); strings.Contains(tr, "nothing to continue") || strings.Contains(tr, `"success":false`) {
		t.Errorf("a failure was reported:\n%s", tr)
	}
	checkAutoContinued(t, r)
}
