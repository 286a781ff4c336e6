package openaicompletions

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// The streams under testdata/llama-cpp-python were recorded from
// llama-cpp-python 0.3.36's server (chatml-function-calling, SmolLM2-135M)
// by scripts/llama-local.sh. That server sends no usage even when asked
// with stream_options.include_usage, repeats a tool call's id and name in
// every argument chunk (next to the deprecated function_call field), and
// sets every unused delta field to null.

func llamaCppPythonServer(t *testing.T, file string) string {
	body, err := os.ReadFile(filepath.Join("testdata", "llama-cpp-python", file))
	if err != nil {
		t.Fatal(err)
	}
	return rawServer(t, string(body))
}

func TestLlamaCppPythonText(t *testing.T) {
	base := llamaCppPythonServer(t, "text.sse")
	req := &ai.Request{Model: presetModel("llama.cpp", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("Say hello in one short sentence.")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.StopReason != ai.StopReasonStop || final.Text() != "Dad, how's everything?" {
		t.Fatalf("stop %s, text %q (error %q)", final.StopReason, final.Text(), final.ErrorMessage)
	}
	if final.ResponseID != "chatcmpl-f956bdc6-3aae-4cd9-ba34-291bf71cb21c" {
		t.Errorf("response id = %q", final.ResponseID)
	}
	if u := final.Usage; !u.Estimated || u.Input == 0 || u.Output == 0 {
		t.Errorf("usage = %+v, want an estimate (the server reports none)", u)
	}
}

func TestLlamaCppPythonToolCall(t *testing.T) {
	base := llamaCppPythonServer(t, "tool-call.sse")
	req := &ai.Request{Model: presetModel("llama.cpp", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("Read hello.txt")}}},
		Tools: []ai.Tool{{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.StopReason != ai.StopReasonToolUse {
		t.Fatalf("stop %s (error %q), want toolUse", final.StopReason, final.ErrorMessage)
	}
	if len(final.Content) != 1 {
		t.Fatalf("content = %#v, want one tool call", final.Content)
	}
	tc, ok := final.Content[0].(*ai.ToolCall)
	if !ok {
		t.Fatalf("content[0] = %#v, want a tool call", final.Content[0])
	}
	if tc.ID != "call__0_read_cmpl-4dd9001a-a47c-4bf3-bd5d-663dd20446c0" || tc.Name != "read" || tc.Arguments["path"] != "hello.txt" || len(tc.Arguments) != 1 {
		t.Errorf("tool call = %+v", tc)
	}
	if !final.Usage.Estimated {
		t.Errorf("usage = %+v, want an estimate", final.Usage)
	}
}

// TestAssistantToolCallWithoutText: an assistant turn holding only tool
// calls is sent with content "" to the llama.cpp preset and with content
// null elsewhere (as OpenAI documents it), or as the model's compat map
// says. llama-cpp-python's server answers content null with HTTP 500
// ("Input should be a valid string") and a missing content with an empty
// stream (its chatml-function-calling template reads message.content), so
// every agent turn after a tool call failed against it; the handler below
// checks like that server.
func TestAssistantToolCallWithoutText(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "llama-cpp-python", "text.sse"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		provider string
		compat   map[string]any
		want     any // the assistant message's content: "" or nil (null)
	}{
		{"llama.cpp", nil, ""},
		{"my-server", nil, nil},
		{"my-server", map[string]any{"emptyContentWithToolCalls": true}, ""},
		{"llama.cpp", map[string]any{"emptyContentWithToolCalls": false}, nil},
	} {
		var sent []map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			var body struct {
				Messages []map[string]any `json:"messages"`
			}
			_ = json.Unmarshal(raw, &body)
			sent = body.Messages
			for _, m := range body.Messages {
				if c, has := m["content"]; m["role"] == "assistant" && (!has || c == nil) {
					w.WriteHeader(http.StatusInternalServerError)
					_, _ = w.Write([]byte(`{"error":{"message":"messages.assistant.content: Input should be a valid string","type":"internal_server_error"}}`))
					return
				}
			}
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(text)
		}))
		m := presetModel(tc.provider, srv.URL)
		m.Compat = tc.compat
		call := &ai.ToolCall{ID: "call__0_read_cmpl-4dd9001a", Name: "read", Arguments: map[string]any{"path": "hello.txt"}}
		req := &ai.Request{Model: m, Messages: []ai.Message{
			&ai.UserMessage{Content: ai.ContentList{ai.Text("Read hello.txt")}},
			&ai.AssistantMessage{Content: ai.ContentList{call}, StopReason: ai.StopReasonToolUse},
			&ai.ToolResultMessage{ToolCallID: call.ID, ToolName: "read", Content: ai.ContentList{ai.Text("1er|The secret word is pineapple.")}},
		}}
		_, final := New(nil).Stream(context.Background(), req).Collect()
		srv.Close()
		if len(sent) != 3 {
			t.Fatalf("%s %v: sent %d messages: %v", tc.provider, tc.compat, len(sent), sent)
		}
		if c, has := sent[1]["content"]; !has || c != tc.want {
			t.Errorf("%s %v: assistant message = %v, want content %#v", tc.provider, tc.compat, sent[1], tc.want)
		}
		if sent[2]["role"] != "tool" || sent[2]["content"] != "1er|The secret word is pineapple." || sent[2]["tool_call_id"] != call.ID {
			t.Errorf("%s: tool message = %v", tc.provider, sent[2])
		}
		if wantOK := tc.want == ""; wantOK != (final.StopReason == ai.StopReasonStop) {
			t.Errorf("%s %v: stop %s, error %q", tc.provider, tc.compat, final.StopReason, final.ErrorMessage)
		}
	}
}

// TestLlamaCppPythonEmptyStream: asked for an automatic tool choice while
// streaming, llama-cpp-python's chatml-function-calling fails after the
// headers ("Automatic streaming tool choice is not supported") and the body
// is empty. That is a stream that ended early, not a finished message.
func TestLlamaCppPythonEmptyStream(t *testing.T) {
	base := rawServer(t, "")
	req := &ai.Request{Model: presetModel("llama.cpp", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.StopReason != ai.StopReasonError || final.ErrorMessage != ai.FormatError(ai.ErrStreamEnded) {
		t.Errorf("stop %s, error %q; want the stream-ended error", final.StopReason, final.ErrorMessage)
	}
}
