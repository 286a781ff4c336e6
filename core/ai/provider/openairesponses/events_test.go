package openairesponses

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// serveEvents answers with the given events (type and JSON payload pairs).
func serveEvents(t *testing.T, events ...string) *ai.Model {
	var b strings.Builder
	for i := 0; i+1 < len(events); i += 2 {
		b.WriteString("event: " + events[i] + "\ndata: " + events[i+1] + "\n\n")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return &ai.Model{ID: "m", API: ai.APIOpenAIResponses, Provider: "openai", BaseURL: srv.URL}
}

func run(t *testing.T, m *ai.Model) *ai.AssistantMessage {
	t.Helper()
	req := &ai.Request{Model: m, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	return final
}

func TestArgumentsOnlyAtDone(t *testing.T) {
	m := serveEvents(t,
		"response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"read","arguments":""}}`,
		"response.function_call_arguments.done", `{"type":"response.function_call_arguments.done","item_id":"fc_1","arguments":"{\"path\":\"x\"}"}`,
		"response.output_item.done", `{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"read","arguments":"{\"path\":\"x\"}"}}`,
		"response.completed", `{"type":"response.completed","response":{"id":"r1","status":"completed","usage":{"input_tokens":10,"output_tokens":2,"input_tokens_details":{"cached_tokens":4}}}}`,
	)
	final := run(t, m)
	calls := final.ToolCalls()
	if final.StopReason != ai.StopReasonToolUse || len(calls) != 1 || calls[0].ID != "call_1|fc_1" || calls[0].Arguments["path"] != "x" {
		t.Fatalf("final = %+v", final)
	}
	if final.Usage.Input != 6 || final.Usage.CacheRead != 4 || final.Usage.Output != 2 {
		t.Errorf("usage = %+v", final.Usage)
	}
}

func TestSummaryPartsAreSeparated(t *testing.T) {
	m := serveEvents(t,
		"response.output_item.added", `{"type":"response.output_item.added","item":{"type":"reasoning","id":"rs_1","summary":[]}}`,
		"response.reasoning_summary_part.added", `{"type":"response.reasoning_summary_part.added","item_id":"rs_1","summary_index":0}`,
		"response.reasoning_summary_text.delta", `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":0,"delta":"First."}`,
		"response.reasoning_summary_part.added", `{"type":"response.reasoning_summary_part.added","item_id":"rs_1","summary_index":1}`,
		"response.reasoning_summary_text.delta", `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":1,"delta":"Second."}`,
		"response.output_item.done", `{"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"enc"}}`,
		"response.completed", `{"type":"response.completed","response":{"status":"completed"}}`,
	)
	final := run(t, m)
	th, ok := final.Content[0].(*ai.ThinkingContent)
	if !ok || th.Thinking != "First.\n\nSecond." || !strings.Contains(th.ThinkingSignature, `"encrypted_content":"enc"`) {
		t.Fatalf("thinking = %+v", final.Content)
	}
}

func TestTerminalStatuses(t *testing.T) {
	cases := []struct {
		event, payload string
		reason         ai.StopReason
		msg            string
	}{
		{"response.failed", `{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"boom"}}}`, ai.StopReasonError, "server_error: boom"},
		{"response.incomplete", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"content_filter"}}}`, ai.StopReasonError, "content filter"},
		{"response.incomplete", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`, ai.StopReasonLength, ""},
		{"error", `{"type":"error","code":"rate_limit_exceeded","message":"slow down"}`, ai.StopReasonError, "rate_limit_exceeded: slow down"},
	}
	for _, c := range cases {
		final := run(t, serveEvents(t, c.event, c.payload))
		if final.StopReason != c.reason || !strings.Contains(final.ErrorMessage, c.msg) {
			t.Errorf("%s: stop %s, error %q; want %s with %q", c.payload, final.StopReason, final.ErrorMessage, c.reason, c.msg)
		}
	}
}

func TestReplaysOwnReasoningOnly(t *testing.T) {
	model := &ai.Model{ID: "gpt-x", API: ai.APIOpenAIResponses, Provider: "openai", Reasoning: true}
	item := `{"id":"rs_9","type":"reasoning","summary":[],"encrypted_content":"enc"}`
	own := &ai.AssistantMessage{API: ai.APIOpenAIResponses, Provider: "openai", Model: "gpt-x", Content: ai.ContentList{
		&ai.ThinkingContent{Thinking: "t", ThinkingSignature: item}, &ai.TextContent{Text: "a", TextSignature: "msg_9"},
	}}
	other := &ai.AssistantMessage{API: ai.APIAnthropicMessages, Provider: "anthropic", Model: "claude", Content: ai.ContentList{
		&ai.ThinkingContent{Thinking: "t", ThinkingSignature: item}, &ai.TextContent{Text: "b", TextSignature: "msg_8"},
	}}
	items := ConvertInput(&ai.Request{Model: model, Messages: []ai.Message{own, other}})
	if len(items) != 3 {
		t.Fatalf("items = %v", items)
	}
	if items[0].(map[string]any)["id"] != "rs_9" || items[1].(map[string]any)["id"] != "msg_9" {
		t.Errorf("own turn not replayed with ids: %v %v", items[0], items[1])
	}
	if _, ok := items[2].(map[string]any)["id"]; ok {
		t.Errorf("another model's text kept its id: %v", items[2])
	}
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIOpenAIResponses, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok {
		t.Errorf("registry built %T", p)
	}
}
