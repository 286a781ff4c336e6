package models

import (
	"context"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestCopilotHeaders(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: env(map[string]string{"COPILOT_GITHUB_TOKEN": "gho_x"})})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Find("github-copilot/gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	user := &ai.UserMessage{Content: ai.ContentList{&ai.TextContent{Text: "fix it"}}}
	image := &ai.UserMessage{Content: ai.ContentList{&ai.ImageContent{MIMEType: "image/png", Data: "AA=="}}}
	result := &ai.ToolResultMessage{ToolCallID: "c1", ToolName: "read", Content: ai.ContentList{&ai.TextContent{Text: "ok"}}}
	for _, tc := range []struct {
		name      string
		msgs      []ai.Message
		set       map[string]string
		initiator string
		vision    bool
	}{
		{"user turn", []ai.Message{user}, nil, "user", false},
		{"tool result", []ai.Message{user, &ai.AssistantMessage{}, result}, nil, "agent", false},
		{"attributed to the agent", []ai.Message{&ai.UserMessage{Attribution: "agent"}}, nil, "agent", false},
		{"image", []ai.Message{image}, nil, "user", true},
		{"caller's override", []ai.Message{user}, map[string]string{"x-initiator": "Agent"}, "agent", false},
	} {
		req := &ai.Request{Model: m, Messages: tc.msgs, Headers: tc.set}
		if err := r.Prepare(context.Background(), req); err != nil {
			t.Fatal(tc.name, err)
		}
		h := req.Headers
		if h["X-Initiator"] != tc.initiator || h["Openai-Intent"] != "conversation-edits" || (h["Copilot-Vision-Request"] == "true") != tc.vision {
			t.Errorf("%s: headers %v", tc.name, h)
		}
		if _, dup := h["x-initiator"]; dup {
			t.Errorf("%s: the caller's header kept beside ours: %v", tc.name, h)
		}
	}
	// Other providers get none of them.
	other, _ := r.Find("openai/gpt-5")
	req := &ai.Request{Model: other, Messages: []ai.Message{user}, APIKey: "k"}
	if err := r.Prepare(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, ok := req.Headers["X-Initiator"]; ok {
		t.Errorf("openai request got Copilot headers: %v", req.Headers)
	}
}
