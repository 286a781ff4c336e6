package agent

import (
	"context"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// RequestWith sends what the next turn would (system prompt, tools, the
// conversation as the context hooks leave it) plus the extra messages,
// which the context hooks do not see; the conversation is unchanged.
func TestRequestWith(t *testing.T) {
	t.Parallel()
	var hookSaw int
	h := &Hooks{Context: func(_ context.Context, msgs []ai.Message) ([]ai.Message, error) {
		hookSaw = len(msgs)
		return append(msgs, &ai.UserMessage{Content: ai.ContentList{ai.Text("from the hook")}}), nil
	}}
	a := New(Options{Model: testModel, SystemPrompt: "SYSTEM", Stream: newScript(t).stream, Tools: []tool.Tool{&fakeTool{name: "read"}}, Hooks: []*Hooks{h},
		Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("q")}}, &ai.AssistantMessage{Content: ai.ContentList{ai.Text("a")}, StopReason: ai.StopReasonStop}}})
	req := a.RequestWith(context.Background(), &ai.UserMessage{Content: ai.ContentList{ai.Text("write the document")}})
	if req.SystemPrompt != "SYSTEM" || len(req.Tools) != 1 || req.Tools[0].Name != "read" || req.Model != testModel {
		t.Errorf("request %+v", req)
	}
	if hookSaw != 2 || len(req.Messages) != 4 {
		t.Fatalf("hook saw %d messages; request has %d", hookSaw, len(req.Messages))
	}
	last := req.Messages[3].(*ai.UserMessage)
	if last.Content[0].(*ai.TextContent).Text != "write the document" {
		t.Errorf("last message %+v", last)
	}
	if n := len(a.Messages()); n != 2 {
		t.Errorf("the conversation has %d messages", n)
	}
}
