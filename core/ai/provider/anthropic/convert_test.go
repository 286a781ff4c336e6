package anthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

func TestMapStopReason(t *testing.T) {
	for in, want := range map[string]ai.StopReason{
		"end_turn": ai.StopReasonStop, "stop_sequence": ai.StopReasonStop, "pause_turn": ai.StopReasonStop,
		"max_tokens": ai.StopReasonLength, "tool_use": ai.StopReasonToolUse,
		"refusal": ai.StopReasonError, "sensitive": ai.StopReasonError, "model_context_window_exceeded": ai.StopReasonError,
		"brand_new": ai.StopReasonError,
	} {
		got, msg := MapStopReason(in)
		if got != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
		if (got == ai.StopReasonError) != (msg != "") {
			t.Errorf("%s: error text %q", in, msg)
		}
	}
	_, msg := MapStopReason("model_context_window_exceeded")
	if !ai.IsContextOverflow(&ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: msg}, 0) {
		t.Error("context window stop is not recognised as overflow")
	}
}

func TestConvertMessages(t *testing.T) {
	model := testModel("http://x")
	msgs := []ai.Message{
		&ai.UserMessage{Content: ai.ContentList{ai.Text("go")}},
		// A failed turn keeps its text and its answered call, not its
		// thinking (the signature may be cut short).
		&ai.AssistantMessage{Content: ai.ContentList{&ai.ThinkingContent{Thinking: "hm", ThinkingSignature: "cut"}, ai.Text("half"),
			&ai.ToolCall{ID: "call_0", Name: "write"}}, StopReason: ai.StopReasonError, Provider: "anthropic", Model: model.ID},
		&ai.ToolResultMessage{ToolCallID: "call_0", ToolName: "write", Content: ai.ContentList{ai.Text("not run")}, IsError: true},
		// A result that answers no call of the turn before it is left out.
		&ai.ToolResultMessage{ToolCallID: "call_0", ToolName: "write", Content: ai.ContentList{ai.Text("again")}},
		&ai.ToolResultMessage{ToolCallID: "ghost", ToolName: "write", Content: ai.ContentList{ai.Text("orphan")}},
		// Foreign thinking becomes text; ids are normalised; the second
		// call has no result and gets a synthetic one.
		&ai.AssistantMessage{Content: ai.ContentList{
			&ai.ThinkingContent{Thinking: "other model's thoughts", ThinkingSignature: "x"},
			&ai.ThinkingContent{Redacted: true, ThinkingSignature: "opaque"},
			&ai.ToolCall{ID: "call_1|item_1", Name: "read", Arguments: map[string]any{"path": "a"}},
			&ai.ToolCall{ID: "call_2", Name: "ls"},
		}, StopReason: ai.StopReasonToolUse, Provider: "openai", Model: "gpt-5"},
		&ai.ToolResultMessage{ToolCallID: "call_1|item_1", ToolName: "read", Content: ai.ContentList{ai.Text("data")}},
		&ai.UserMessage{Content: ai.ContentList{ai.Text("next")}},
	}
	got, _ := json.Marshal(convertMessages(msgs, model))
	want := `[{"role":"user","content":[{"type":"text","text":"go"}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"half"},{"type":"tool_use","id":"call_0","name":"write","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_0","content":[{"type":"text","text":"not run"}],"is_error":true}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"other model's thoughts"},{"type":"tool_use","id":"call_1_item_1","name":"read","input":{"path":"a"}},{"type":"tool_use","id":"call_2","name":"ls","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1_item_1","content":[{"type":"text","text":"data"}]},` +
		`{"type":"tool_result","tool_use_id":"call_2","content":[{"type":"text","text":"No result provided"}],"is_error":true},{"type":"text","text":"next"}]}]`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPayloadOptions(t *testing.T) {
	m := testModel("http://x")
	temp := 0.5
	p := buildPayload(&ai.Request{Model: m, MaxTokens: 1000, Temperature: &temp, Cache: ai.CacheLong,
		Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("q")}}}})
	if p.Thinking != nil || p.Temperature == nil || p.MaxTokens != 1000 {
		t.Errorf("no-thinking payload %+v", p)
	}
	if c := p.Messages[0].Content[0].CacheControl; c == nil || c.TTL != "1h" {
		t.Errorf("long cache mark %+v", c)
	}
	p = buildPayload(&ai.Request{Model: m, MaxTokens: 1000, Temperature: &temp, Thinking: ai.ThinkingLow, Cache: ai.CacheNone})
	if p.Thinking == nil || p.Thinking.BudgetTokens != ai.ThinkingBudgets[ai.ThinkingLow] || p.MaxTokens != 1000+ai.ThinkingBudgets[ai.ThinkingLow] || p.Temperature != nil {
		t.Errorf("thinking payload %+v", p)
	}
	if p.System != nil {
		t.Error("empty system prompt sent")
	}
	small := *m
	small.MaxTokens = 4096
	p = buildPayload(&ai.Request{Model: &small, Thinking: ai.ThinkingXHigh})
	if p.MaxTokens != 4096 || p.Thinking.BudgetTokens >= p.MaxTokens {
		t.Errorf("budget not fitted under max_tokens: %d / %d", p.Thinking.BudgetTokens, p.MaxTokens)
	}
}

func TestAuthHeadersAndURL(t *testing.T) {
	for _, tc := range []struct{ key, header, value string }{
		{"sk-ant-api03-x", "X-Api-Key", "sk-ant-api03-x"},
		{"sk-ant-oat01-x", "Authorization", "Bearer sk-ant-oat01-x"},
	} {
		srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
		req := &ai.Request{Model: testModel(srv.URL() + "/v1/"), APIKey: tc.key, Headers: map[string]string{"X-Custom": "c"},
			Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("q")}}}}
		_, final := New(nil).Stream(context.Background(), req).Collect()
		if final.StopReason != ai.StopReasonStop {
			t.Fatalf("%s: %s", final.StopReason, final.ErrorMessage)
		}
		r := srv.Requests()[0]
		if r.Path != "/v1/messages" || r.Header.Get(tc.header) != tc.value || r.Header.Get("X-Custom") != "c" {
			t.Errorf("path %s headers %v", r.Path, r.Header)
		}
		oauth := strings.Contains(r.Header.Get("anthropic-beta"), oauthBeta)
		if oauth != IsOAuthToken(tc.key) {
			t.Errorf("oauth beta header %q for key %s", r.Header.Get("anthropic-beta"), tc.key)
		}
	}
	if MessagesURL("") != "https://api.anthropic.com/v1/messages" {
		t.Error(MessagesURL(""))
	}
}
