package openaicompletions

import (
	"context"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// TestStreamUsageRequested: stream_options.include_usage is sent where the
// server accepts it (llama.cpp and a generic local server included) and
// left out where it is rejected (Cerebras, or compat
// supportsUsageInStreaming: false).
func TestStreamUsageRequested(t *testing.T) {
	for _, tc := range []struct {
		provider string
		compat   map[string]any
		want     bool
	}{
		{"llama.cpp", nil, true},
		{"my-local-server", nil, true},
		{"openai", nil, true},
		{"cerebras", nil, false},
		{"llama.cpp", map[string]any{"supportsUsageInStreaming": false}, false},
	} {
		srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}, Usage: &mockllm.Usage{Input: 9, Output: 2}})
		m := presetModel(tc.provider, srv.URL())
		m.Compat = tc.compat
		req := &ai.Request{Model: m, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		_, final := New(nil).Stream(context.Background(), req).Collect()
		so, asked := srv.Requests()[0].JSON()["stream_options"].(map[string]any)
		if asked != tc.want || asked && so["include_usage"] != true {
			t.Errorf("%s %v: stream_options = %v, want include_usage %v", tc.provider, tc.compat, so, tc.want)
		}
		if tc.want && (final.Usage.Input != 9 || final.Usage.Output != 2 || final.Usage.Estimated) {
			t.Errorf("%s: usage %+v, want the server's 9/2", tc.provider, final.Usage)
		}
		if !tc.want && (!final.Usage.Estimated || final.Usage.Input == 0 || final.Usage.Output == 0) {
			t.Errorf("%s without stream usage: %+v, want an estimate", tc.provider, final.Usage)
		}
	}
}

// TestUsageFallbacks: a usage object wins; without one, llama.cpp's
// timings give exact counts; a usage inside the choice is read too; with
// nothing at all the usage is estimated.
func TestUsageFallbacks(t *testing.T) {
	const text = `data: {"choices":[{"index":0,"delta":{"content":"Hello."}}]}

`
	for _, tc := range []struct {
		name, last string
		want       ai.Usage
	}{
		{"llama.cpp timings", `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"timings":{"cache_n":20,"prompt_n":11,"prompt_ms":5.1,"predicted_n":3,"predicted_ms":9.5}}`,
			ai.Usage{Input: 11, CacheRead: 20, Output: 3, TotalTokens: 34}},
		{"usage beats timings", `{"choices":[],"usage":{"prompt_tokens":31,"completion_tokens":3},"timings":{"cache_n":20,"prompt_n":11,"predicted_n":3}}`,
			ai.Usage{Input: 31, Output: 3, TotalTokens: 34}},
		{"usage in the choice", `{"choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":8,"completion_tokens":2}}]}`,
			ai.Usage{Input: 8, Output: 2, TotalTokens: 10}},
	} {
		base := rawServer(t, text+"data: "+tc.last+"\n\ndata: [DONE]\n\n")
		req := &ai.Request{Model: presetModel("llama.cpp", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		_, final := New(nil).Stream(context.Background(), req).Collect()
		if final.Usage != tc.want {
			t.Errorf("%s: usage %+v, want %+v", tc.name, final.Usage, tc.want)
		}
	}
	base := rawServer(t, text+`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	req := &ai.Request{Model: presetModel("llama.cpp", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if u := final.Usage; !u.Estimated || u.Input != ai.EstimateInputTokens(req) || u.Output != 2 {
		t.Errorf("no usage at all: %+v, want estimated input %d, output 2 (\"Hello.\")", u, ai.EstimateInputTokens(req))
	}
}
