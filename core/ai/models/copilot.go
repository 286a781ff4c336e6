package models

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// CopilotProvider is GitHub Copilot's provider name.
const CopilotProvider = "github-copilot"

// copilotHeaders adds the per-request headers GitHub Copilot bills and
// routes by, as omp sends them: X-Initiator ("user" when the conversation
// ends with something the user typed, "agent" when it ends with the
// agent's own turn or a tool result; a message's Attribution decides when
// it has one, and an X-Initiator the caller set wins), Openai-Intent, and
// Copilot-Vision-Request when any user message or tool result carries an
// image. The model's static headers come from the catalogue.
func copilotHeaders(req *ai.Request) {
	if req.Model == nil || req.Model.Provider != CopilotProvider {
		return
	}
	h := make(map[string]string, len(req.Headers)+3)
	initiator := ""
	for k, v := range req.Headers {
		h[k] = v
		if strings.EqualFold(k, "X-Initiator") {
			if v := strings.ToLower(strings.TrimSpace(v)); v == "user" || v == "agent" {
				initiator = v
			}
			delete(h, k)
		}
	}
	if initiator == "" {
		initiator = copilotInitiator(req.Messages)
	}
	h["X-Initiator"] = initiator
	h["Openai-Intent"] = "conversation-edits"
	if copilotVision(req.Messages) {
		h["Copilot-Vision-Request"] = "true"
	}
	req.Headers = h
}

// copilotInitiator says who started the request: the last message's
// attribution when it names one, else "user" for a user message (or an
// empty conversation) and "agent" for anything else.
func copilotInitiator(msgs []ai.Message) string {
	if len(msgs) == 0 {
		return "user"
	}
	var attribution string
	switch m := msgs[len(msgs)-1].(type) {
	case *ai.UserMessage:
		attribution = m.Attribution
		if a := strings.ToLower(strings.TrimSpace(attribution)); a == "user" || a == "agent" {
			return a
		}
		return "user"
	case *ai.ToolResultMessage:
		attribution = m.Attribution
	}
	if a := strings.ToLower(strings.TrimSpace(attribution)); a == "user" {
		return a
	}
	return "agent"
}

// copilotVision reports whether a user message or tool result carries an
// image.
func copilotVision(msgs []ai.Message) bool {
	for _, msg := range msgs {
		var content ai.ContentList
		switch m := msg.(type) {
		case *ai.UserMessage:
			content = m.Content
		case *ai.ToolResultMessage:
			content = m.Content
		}
		for _, c := range content {
			if _, ok := c.(*ai.ImageContent); ok {
				return true
			}
		}
	}
	return false
}
