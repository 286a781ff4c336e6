package google

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// serveChunks answers with the given JSON chunks as SSE data frames.
func serveChunks(t *testing.T, chunks ...string) *ai.Model {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return &ai.Model{ID: "gemini-2.5-flash", API: ai.APIGoogleGenerativeAI, BaseURL: srv.URL}
}

func run(t *testing.T, m *ai.Model) *ai.AssistantMessage {
	t.Helper()
	req := &ai.Request{Model: m, RequestID: "req_1", Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	return final
}

func TestStopReasons(t *testing.T) {
	cases := []struct {
		chunk  string
		reason ai.StopReason
		msg    string
	}{
		{`{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"}}`, ai.StopReasonError, "blocked the prompt (blockReason PROHIBITED_CONTENT)"},
		{`{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"RECITATION"}]}`, ai.StopReasonError, "finishReason RECITATION"},
		{`{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]}`, ai.StopReasonError, "MALFORMED_FUNCTION_CALL"},
		{`{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"MAX_TOKENS"}]}`, ai.StopReasonLength, ""},
		{`{"error":{"code":500,"message":"internal","status":"INTERNAL"}}`, ai.StopReasonError, "INTERNAL: internal"},
	}
	for _, c := range cases {
		final := run(t, serveChunks(t, c.chunk))
		if final.StopReason != c.reason || !strings.Contains(final.ErrorMessage, c.msg) {
			t.Errorf("%s: stop %s error %q; want %s with %q", c.chunk, final.StopReason, final.ErrorMessage, c.reason, c.msg)
		}
	}
}

func TestCallIDsAndSignatures(t *testing.T) {
	final := run(t, serveChunks(t,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Sure","thoughtSignature":"sig-t"}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"given","name":"a","args":{}}},{"functionCall":{"name":"b"}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":2,"thoughtsTokenCount":5,"cachedContentTokenCount":3}}`,
	))
	calls := final.ToolCalls()
	if final.StopReason != ai.StopReasonToolUse || len(calls) != 2 || calls[0].ID != "given" || calls[1].ID != "b_req_1_2" {
		t.Fatalf("final = %+v", final)
	}
	if tx := final.Content[0].(*ai.TextContent); tx.TextSignature != "sig-t" {
		t.Errorf("text signature = %q", tx.TextSignature)
	}
	if u := final.Usage; u.Input != 6 || u.CacheRead != 3 || u.Output != 7 {
		t.Errorf("usage = %+v", u)
	}
}

func TestRequestShape(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	m := &ai.Model{ID: "gemini-3-pro-preview", API: ai.APIGoogleGenerativeAI, BaseURL: srv.URL() + "/v1beta", Reasoning: true}
	req := &ai.Request{Model: m, APIKey: "k", Thinking: ai.ThinkingLow, Messages: []ai.Message{
		&ai.UserMessage{Content: ai.ContentList{ai.Text("hi"), &ai.ImageContent{Data: "AA==", MIMEType: "image/png"}}},
		&ai.ToolResultMessage{ToolCallID: "c", ToolName: "read", IsError: true, Content: ai.ContentList{ai.Text("no such file")}},
		&ai.ToolResultMessage{ToolCallID: "d", ToolName: "ls", Content: ai.ContentList{ai.Text("a")}},
	}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	r := srv.Requests()[0]
	if r.Header.Get("X-Goog-Api-Key") != "k" {
		t.Errorf("key header = %q", r.Header.Get("X-Goog-Api-Key"))
	}
	body := r.JSON()
	contents := body["contents"].([]any)
	if len(contents) != 2 {
		t.Fatalf("contents = %v", contents)
	}
	if parts := contents[0].(map[string]any)["parts"].([]any); len(parts) != 1 {
		t.Errorf("image sent to a text-only model: %v", parts)
	}
	results := contents[1].(map[string]any)["parts"].([]any)
	first := results[0].(map[string]any)["functionResponse"].(map[string]any)["response"].(map[string]any)
	if len(results) != 2 || first["error"] != "no such file" {
		t.Errorf("tool results = %v", results)
	}
	tc := body["generationConfig"].(map[string]any)["thinkingConfig"].(map[string]any)
	if tc["thinkingLevel"] != "low" || tc["includeThoughts"] != true {
		t.Errorf("thinkingConfig = %v", tc)
	}
}

func TestRetryDelayFromErrorBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(429)
		_, _ = w.Write([]byte(`{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"12s"}]}}`))
	}))
	t.Cleanup(srv.Close)
	final := run(t, &ai.Model{ID: "gemini-2.5-flash", API: ai.APIGoogleGenerativeAI, BaseURL: srv.URL})
	if final.ErrorMessage != "HTTP 429 Too Many Requests: Quota exceeded (retry after 12s)" {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIGoogleGenerativeAI, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok {
		t.Errorf("registry built %T", p)
	}
}
