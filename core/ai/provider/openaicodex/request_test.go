package openaicodex

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestResponsesURL(t *testing.T) {
	for base, want := range map[string]string{
		"":                                      "https://chatgpt.com/backend-api/codex/responses",
		"https://chatgpt.com/backend-api/":      "https://chatgpt.com/backend-api/codex/responses",
		"http://h/backend-api/codex":            "http://h/backend-api/codex/responses",
		"http://h/backend-api/codex/responses/": "http://h/backend-api/codex/responses",
	} {
		if got := ResponsesURL(base); got != want {
			t.Errorf("ResponsesURL(%q) = %q, want %q", base, got, want)
		}
	}
}

// payload renders a request's body as generic JSON.
func payload(t *testing.T, req *ai.Request) map[string]any {
	t.Helper()
	data, err := json.Marshal(buildPayload(req))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPayloadForTheBackend(t *testing.T) {
	m := testModel("http://x")
	reasoning := `{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"enc"}`
	own := &ai.AssistantMessage{API: m.API, Provider: m.Provider, Model: m.ID, StopReason: ai.StopReasonToolUse, Content: ai.ContentList{
		&ai.ThinkingContent{Thinking: "t", ThinkingSignature: reasoning},
		&ai.TextContent{Text: "a", TextSignature: "msg_1"},
		&ai.ToolCall{ID: "call_1|fc_1", Name: "read", Arguments: map[string]any{"path": "a"}},
	}}
	req := &ai.Request{Model: m, SystemPrompt: "be brief", MaxTokens: 500, Thinking: ai.ThinkingXHigh, SessionID: "sess-1",
		Messages: []ai.Message{
			&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}},
			own,
			&ai.ToolResultMessage{ToolCallID: "call_1|fc_1", ToolName: "read", Content: ai.ContentList{ai.Text("x")}},
			// A result whose call was cut from the history (compaction).
			&ai.ToolResultMessage{ToolCallID: "call_gone|fc_gone", ToolName: "grep", Content: ai.ContentList{ai.Text(strings.Repeat("é", 9000))}},
		}}
	p := payload(t, req)
	if p["instructions"] != "be brief" || p["store"] != false || p["stream"] != true || p["prompt_cache_key"] != "sess-1" {
		t.Errorf("instructions/store/stream/prompt_cache_key = %v %v %v %v", p["instructions"], p["store"], p["stream"], p["prompt_cache_key"])
	}
	if _, ok := p["max_output_tokens"]; ok {
		t.Error("max_output_tokens sent; the backend rejects it")
	}
	if r := p["reasoning"].(map[string]any); r["effort"] != "xhigh" || r["summary"] != "auto" {
		t.Errorf("reasoning = %v", r)
	}
	if v := p["text"].(map[string]any)["verbosity"]; v != "low" {
		t.Errorf("verbosity = %v", v)
	}
	items := p["input"].([]any)
	var types []string
	for _, it := range items {
		m := it.(map[string]any)
		if _, ok := m["id"]; ok {
			t.Errorf("item keeps its id: %v", m)
		}
		typ, _ := m["type"].(string)
		if role, _ := m["role"].(string); role == "system" || role == "developer" {
			t.Errorf("system prompt sent as an input item: %v", m)
		}
		types = append(types, typ)
	}
	if got := strings.Join(types, ","); got != ",reasoning,message,function_call,function_call_output,message" {
		t.Fatalf("item types = %s", got)
	}
	if enc := items[1].(map[string]any)["encrypted_content"]; enc != "enc" {
		t.Errorf("own reasoning not replayed: %v", items[1])
	}
	orphan := items[5].(map[string]any)
	text, _ := orphan["content"].(string)
	if orphan["role"] != "assistant" || !strings.Contains(text, "grep") || !strings.Contains(text, "call_gone") ||
		!strings.HasSuffix(text, "…(truncated)") || len(text) > orphanOutputLimit+200 {
		t.Errorf("orphan output = %.120q…", text)
	}
}

func TestThinkingOffSendsNoReasoning(t *testing.T) {
	p := payload(t, &ai.Request{Model: testModel("http://x"), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}})
	if _, ok := p["reasoning"]; ok {
		t.Errorf("reasoning sent with thinking off: %v", p["reasoning"])
	}
	if _, ok := p["instructions"]; ok {
		t.Error("instructions sent without a system prompt")
	}
	if inc := p["include"].([]any); len(inc) != 1 || inc[0] != "reasoning.encrypted_content" {
		t.Errorf("include = %v", inc)
	}
}
