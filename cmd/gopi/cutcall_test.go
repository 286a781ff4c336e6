package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A stream cut inside a tool call's arguments, retried until the retries
// run out, leaves four failed answers with the same call id in the
// session. The next --continue must send what the provider accepts:
// every call followed by exactly one result, no call id twice, and the
// retried attempts not at all (as during the run). Checked on the request
// body of each wire format.
func TestContinueAfterStreamCutInToolCall(t *testing.T) {
	args := `{"path":"notes.txt","content":"` + strings.Repeat("abcdefgh", 40) + `"}`
	// Frames before the cut: a few argument deltas in (Gemini sends a
	// call whole: the cut comes after it, before the end of the reply).
	cutAfter := map[string]int{
		"anthropic-messages":   10,
		"openai-completions":   7,
		"openai-responses":     13,
		"google-generative-ai": 3,
	}
	for api, frames := range cutAfter {
		t.Run(api, func(t *testing.T) {
			cut := mockllm.Turn{Blocks: []mockllm.Block{text("Writing it."),
				{Type: mockllm.BlockToolCall, ID: "call_x", Name: "write", Arguments: args}, text("Done.")}, DisconnectAfter: frames}
			r := newAgentRig(t, cut, cut, cut, cut, mockllm.Turn{Blocks: []mockllm.Block{text("The connection dropped; nothing was written.")}})
			r.SetModel(api, 200_000)
			if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("retry:\n  baseDelayMs: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "write notes.txt")
			if code != 1 || strings.Count(stderr, "retry ") != 3 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			if _, err := os.Stat(filepath.Join(r.Project, "notes.txt")); err == nil {
				t.Fatal("the cut call was run")
			}
			checkCutSession(t, r.SessionFiles()[0], api)

			stdout, stderr, code := r.run("", "-p", "--continue", "--model", "mock/mock-model", "what happened?")
			if code != 0 || stdout != "The connection dropped; nothing was written.\n" {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			reqs := r.Srv.Requests()
			if len(reqs) != 5 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := reqs[4].Body
			calls, err := checkPairedCalls(api, body)
			if err != nil {
				t.Fatalf("%v\nbody: %s", err, body)
			}
			// The last attempt stays, with the loop's failure result; the
			// three retried ones are not sent.
			if calls != 1 || strings.Count(string(body), "Writing it.") != 1 {
				t.Errorf("%d calls sent, %d copies of the failed answer's text\nbody: %s", calls, strings.Count(string(body), "Writing it."), body)
			}
		})
	}
}

// checkCutSession checks the failed run's session: four failed answers
// calling call_x, cut in their arguments (but for Gemini), then one result.
func checkCutSession(t *testing.T, path, api string) {
	t.Helper()
	m, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	failedCalls, results := 0, 0
	for _, e := range m.Entries() {
		switch msg := e.Message.(type) {
		case *ai.AssistantMessage:
			calls := msg.ToolCalls()
			if msg.StopReason != ai.StopReasonError || len(calls) != 1 || !strings.HasPrefix(calls[0].ID, "call_x") {
				t.Fatalf("answer %+v", msg)
			}
			content, _ := calls[0].Arguments["content"].(string)
			if cut := len(content) < 320; cut != (api != "google-generative-ai") {
				t.Fatalf("arguments %v: the cut is not where the test wants it", calls[0].Arguments)
			}
			failedCalls++
		case *ai.ToolResultMessage:
			results++
		}
	}
	if failedCalls != 4 || results != 1 {
		t.Fatalf("%d failed answers with a call, %d results", failedCalls, results)
	}
}

// checkPairedCalls checks a request body of the given wire format: every
// tool call has exactly one result right after its assistant turn (in call
// order), no result answers anything else, and no call id is used twice.
// It returns the number of calls.
func checkPairedCalls(api string, body []byte) (int, error) {
	type turn struct {
		calls   []string // call ids (Gemini: names) the turn makes
		results []string // results it carries
	}
	var turns []turn
	switch api {
	case "anthropic-messages":
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Type      string `json:"type"`
					ID        string `json:"id"`
					ToolUseID string `json:"tool_use_id"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return 0, err
		}
		for _, m := range req.Messages {
			var tr turn
			for _, b := range m.Content {
				switch b.Type {
				case "tool_use":
					tr.calls = append(tr.calls, b.ID)
				case "tool_result":
					tr.results = append(tr.results, b.ToolUseID)
				}
			}
			turns = append(turns, tr)
		}
	case "openai-completions":
		var req struct {
			Messages []struct {
				Role       string `json:"role"`
				ToolCallID string `json:"tool_call_id"`
				ToolCalls  []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return 0, err
		}
		for _, m := range req.Messages {
			switch {
			case m.Role == "tool" && len(turns) > 0 && turns[len(turns)-1].calls == nil && len(turns[len(turns)-1].results) > 0:
				turns[len(turns)-1].results = append(turns[len(turns)-1].results, m.ToolCallID)
			case m.Role == "tool":
				turns = append(turns, turn{results: []string{m.ToolCallID}})
			default:
				var tr turn
				for _, c := range m.ToolCalls {
					tr.calls = append(tr.calls, c.ID)
				}
				turns = append(turns, tr)
			}
		}
	case "openai-responses":
		var req struct {
			Input []struct {
				Type   string `json:"type"`
				CallID string `json:"call_id"`
			} `json:"input"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return 0, err
		}
		for _, it := range req.Input {
			switch {
			case it.Type == "function_call" && len(turns) > 0 && turns[len(turns)-1].calls != nil && turns[len(turns)-1].results == nil:
				turns[len(turns)-1].calls = append(turns[len(turns)-1].calls, it.CallID)
			case it.Type == "function_call":
				turns = append(turns, turn{calls: []string{it.CallID}})
			case it.Type == "function_call_output" && len(turns) > 0 && turns[len(turns)-1].calls == nil && len(turns[len(turns)-1].results) > 0:
				turns[len(turns)-1].results = append(turns[len(turns)-1].results, it.CallID)
			case it.Type == "function_call_output":
				turns = append(turns, turn{results: []string{it.CallID}})
			default:
				turns = append(turns, turn{})
			}
		}
	case "google-generative-ai":
		var req struct {
			Contents []struct {
				Role  string `json:"role"`
				Parts []struct {
					FunctionCall *struct {
						Name string `json:"name"`
					} `json:"functionCall"`
					FunctionResponse *struct {
						Name string `json:"name"`
					} `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return 0, err
		}
		for _, c := range req.Contents {
			var tr turn
			for _, p := range c.Parts {
				if p.FunctionCall != nil {
					tr.calls = append(tr.calls, p.FunctionCall.Name)
				}
				if p.FunctionResponse != nil {
					tr.results = append(tr.results, p.FunctionResponse.Name)
				}
			}
			turns = append(turns, tr)
		}
	default:
		return 0, fmt.Errorf("unknown api %s", api)
	}
	seen := map[string]bool{}
	n := 0
	for i, tr := range turns {
		if len(tr.results) > 0 && (i == 0 || strings.Join(turns[i-1].calls, ",") != strings.Join(tr.results, ",")) {
			return 0, fmt.Errorf("turn %d: results %v do not answer the calls before them", i, tr.results)
		}
		if len(tr.calls) > 0 && (i+1 >= len(turns) || len(turns[i+1].results) == 0) {
			return 0, fmt.Errorf("turn %d: calls %v have no results after them", i, tr.calls)
		}
		for _, id := range tr.calls {
			if seen[id] && api != "google-generative-ai" {
				return 0, fmt.Errorf("call id %s is used twice", id)
			}
			seen[id] = true
			n++
		}
	}
	return n, nil
}

// A session omp wrote after a stream cut inside a call's arguments (see
// testdata/omp/README.md), resumed with each wire format: the failed
// attempts are repaired the same way.
func TestResumeOmpSessionWithCutCall(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "omp", "cut-retried.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, api := range []string{"anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"} {
		t.Run(api, func(t *testing.T) {
			r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("The connection dropped; nothing was written.")}})
			r.SetModel(api, 200_000)
			path := filepath.Join(r.Home, "omp-session.jsonl")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := r.run("", "-p", "--resume", path, "--model", "mock/mock-model", "what happened?")
			if code != 0 || stdout != "The connection dropped; nothing was written.\n" {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			body := r.Srv.Requests()[0].Body
			calls, err := checkPairedCalls(api, body)
			if err != nil {
				t.Fatalf("%v\nbody: %s", err, body)
			}
			// The call never got a result: the failed answer is sent as
			// its text, once.
			if calls != 0 || strings.Count(string(body), "Writing it.") != 1 {
				t.Errorf("%d calls sent, %d copies of the failed answer's text\nbody: %s", calls, strings.Count(string(body), "Writing it."), body)
			}
		})
	}
}
