package ai

import (
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/tokens"
)

func o200k(t *testing.T, s string) int {
	t.Helper()
	enc, err := tokens.Get(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return enc.Count(s)
}

func TestEstimateInputTokens(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	req := &Request{
		SystemPrompt: "You are terse.",
		Messages: []Message{
			&UserMessage{Content: ContentList{Text("Read main.go <please>."), &ImageContent{Data: "iVBORw0KGgo=", MIMEType: "image/png"}}},
			&AssistantMessage{Content: ContentList{
				&ThinkingContent{Thinking: "left out: not sent back"},
				Text("Reading."),
				&ToolCall{ID: "c1", Name: "read", Arguments: map[string]any{"path": "main.go"}},
			}},
			&ToolResultMessage{ToolCallID: "c1", ToolName: "read", Content: ContentList{Text("package main\n")}},
			&OpaqueMessage{Role: "custom", Raw: json.RawMessage(`{"role":"custom","note":"not sent"}`)},
		},
		Tools: []Tool{{Name: "read", Description: "Read a <file>.", Parameters: params}},
	}
	want := 4 + o200k(t, "You are terse.") +
		4 + o200k(t, "Read main.go <please>.") + imageTokens +
		4 + o200k(t, "Reading.") + o200k(t, "read") + o200k(t, `{"path":"main.go"}`) +
		4 + o200k(t, "package main\n") +
		o200k(t, `{"name":"read","description":"Read a <file>.","parameters":`+string(params)+`}`)
	if got := EstimateInputTokens(req); got != want {
		t.Errorf("EstimateInputTokens = %d, want %d", got, want)
	}
	if got := EstimateInputTokens(nil); got != 0 {
		t.Errorf("nil request: %d", got)
	}
}

func TestEstimateUsageCountsStreamedOutput(t *testing.T) {
	msg := &AssistantMessage{Content: ContentList{
		&ThinkingContent{Thinking: "Let me think."},
		Text("Here <it> is."),
		&ToolCall{Name: "write", Arguments: map[string]any{"content": "a < b"}},
		&ToolCall{Name: "edit", PartialJSON: `{"path":"x`}, // still streaming
	}}
	u := EstimateUsage(&Request{SystemPrompt: "Be brief."}, msg)
	want := o200k(t, "Let me think.") + o200k(t, "Here <it> is.") + o200k(t, `{"content":"a < b"}`) + o200k(t, `{"path":"x`)
	if u.Output != want || u.Input != 4+o200k(t, "Be brief.") || !u.Estimated || u.TotalTokens != u.Input+u.Output {
		t.Errorf("usage %+v, want output %d", u, want)
	}
	if u := EstimateUsage(nil, msg); u.Input != 0 || u.Output != want {
		t.Errorf("without a request: %+v", u)
	}
}

// TestDoneEstimatesMissingUsage: the shared fallback every provider gets
// through Done.
func TestDoneEstimatesMissingUsage(t *testing.T) {
	model := &Model{ID: "m", Cost: Prices{Input: 1, Output: 2}}
	req := &Request{Model: model, Messages: []Message{&UserMessage{Content: ContentList{Text("Say hello.")}}}}
	run := func(stop StopReason, reported Usage) Usage {
		em, s := NewRequestEmitter(req)
		em.Start()
		idx := em.StartText()
		em.TextDelta(idx, "Hello there.")
		em.EndText(idx)
		em.SetUsage(reported)
		em.SetStopReason(stop)
		em.Done(model)
		_, final := s.Collect()
		return final.Usage
	}
	u := run(StopReasonStop, Usage{})
	if !u.Estimated || u.Input != 4+o200k(t, "Say hello.") || u.Output != o200k(t, "Hello there.") || u.Cost.Total == 0 {
		t.Errorf("no usage reported: got %+v, want an estimate with its cost", u)
	}
	if u := run(StopReasonStop, Usage{Input: 7, Output: 3}); u.Estimated || u.Input != 7 || u.Output != 3 {
		t.Errorf("reported usage replaced: %+v", u)
	}
	if u := run(StopReasonError, Usage{}); u.Estimated || u.Input != 0 {
		t.Errorf("a failed response got an estimate: %+v", u)
	}
	em, s := NewEmitter(model) // no request: nothing to estimate the input from
	em.Start()
	em.Done(model)
	if _, final := s.Collect(); final.Usage.Estimated {
		t.Errorf("NewEmitter estimated a usage: %+v", final.Usage)
	}
	data, _ := json.Marshal(Usage{Input: 1})
	if string(data) != `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}` {
		t.Errorf("a reported usage marshals as %s (estimated must be omitted)", data)
	}
}
