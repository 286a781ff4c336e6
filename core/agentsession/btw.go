package agentsession

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// sideQuestionWrap frames a /btw question for the model: a short answer
// from the conversation as it stands, no tools, no questions back.
const sideQuestionWrap = `<btw>
The user asks a quick side question about this session; it is not part of the task and will not be kept in the conversation.
Reply in a few sentences from what the conversation already holds. Call no tools and ask nothing back.
Question:
%s
</btw>`

// ErrNoSideQuestion is returned by SideQuestion for an empty question.
var ErrNoSideQuestion = errors.New("Usage: /btw <question>")

// SideQuestion asks the current model a question about the conversation
// without adding anything to it (/btw): one request with the session's
// system prompt and messages (calls still waiting for their results left
// out, so it works while the agent runs), the question after them, and
// tools disabled. onDelta, when set, receives the answer's text as it
// streams. It returns the answer's text.
func (c *Conversation) SideQuestion(ctx context.Context, question string, onDelta func(string)) (string, error) {
	s := c.s
	question = strings.TrimSpace(question)
	if question == "" {
		return "", ErrNoSideQuestion
	}
	if s.isClosed() {
		return "", errClosed
	}
	model := s.agent.Model()
	if model == nil {
		return "", errors.New("No model is selected for /btw: pick one with /model")
	}
	if err := s.model.check(); err != nil {
		return "", err
	}
	ask := &ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf(sideQuestionWrap, question))}, Attribution: "user", Timestamp: nowMillis()}
	req := s.agent.RequestWith(ctx, ask)
	req.Messages = answeredOnly(req.Messages)
	req.ToolChoice = &ai.ToolChoice{Mode: ai.ToolChoiceNone}
	req.Thinking = ai.ThinkingOff
	return s.answerText(ctx, req, "side question", onDelta)
}

// answerText sends req and returns the answer's text; onDelta, when set,
// receives it as it streams. what names the request in errors.
func (s *Session) answerText(ctx context.Context, req *ai.Request, what string, onDelta func(string)) (string, error) {
	stream := s.streamFunc()(ctx, req)
	for ev := range stream.Events() {
		if ev.Type == ai.EventTextDelta && onDelta != nil {
			onDelta(ev.Delta)
		}
	}
	msg := stream.Result(ctx)
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case msg == nil:
		return "", fmt.Errorf("the model sent no answer to the %s: try again", what)
	case msg.StopReason == ai.StopReasonAborted:
		return "", context.Canceled
	case msg.StopReason == ai.StopReasonError:
		return "", fmt.Errorf("%s failed: %s", what, msg.ErrorMessage)
	}
	var parts []string
	for _, b := range msg.Content {
		if t, ok := b.(*ai.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "")), nil
}

// answeredOnly drops the tool calls that have no result yet (a run in
// progress) from msgs: a provider refuses a call without its result. An
// answer left empty by that is dropped too.
func answeredOnly(msgs []ai.Message) []ai.Message {
	done := map[string]bool{}
	for _, m := range msgs {
		if r, ok := m.(*ai.ToolResultMessage); ok {
			done[r.ToolCallID] = true
		}
	}
	out := msgs[:0:0]
	for _, m := range msgs {
		a, ok := m.(*ai.AssistantMessage)
		if !ok {
			out = append(out, m)
			continue
		}
		keep := true
		for _, c := range a.ToolCalls() {
			if !done[c.ID] {
				keep = false
			}
		}
		if keep {
			out = append(out, m)
			continue
		}
		c := *a
		c.Content = nil
		for _, b := range a.Content {
			if tc, ok := b.(*ai.ToolCall); ok && !done[tc.ID] {
				continue
			}
			c.Content = append(c.Content, b)
		}
		if len(c.Content) > 0 {
			out = append(out, &c)
		}
	}
	return out
}
