package agentsession

import (
	"context"
	"errors"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// Generate asks the current model for a text outside the conversation:
// one request with system as its whole system prompt and prompt as its
// only message, no tools and no thinking (/agents writes a new agent
// definition with it). what names the request in errors; onDelta, when
// set, receives the text as it streams.
func (c *Conversation) Generate(ctx context.Context, system, prompt, what string, onDelta func(string)) (string, error) {
	s := c.s
	if strings.TrimSpace(prompt) == "" {
		return "", errors.New("nothing to ask the model: the request is empty")
	}
	if s.isClosed() {
		return "", errClosed
	}
	if s.agent.Model() == nil {
		return "", errors.New("No model is selected: pick one with /model")
	}
	if err := s.model.check(); err != nil {
		return "", err
	}
	ask := &ai.UserMessage{Content: ai.ContentList{ai.Text(prompt)}, Attribution: "user", Timestamp: nowMillis()}
	req := s.agent.RequestWith(ctx)
	req.SystemPrompt = system
	req.Messages = []ai.Message{ask}
	req.Tools = nil
	req.ToolChoice = nil
	req.Thinking = ai.ThinkingOff
	return s.answerText(ctx, req, what, onDelta)
}
