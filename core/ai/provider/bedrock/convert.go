package bedrock

import (
	"encoding/base64"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// noResult answers a tool call the conversation left without a result:
// Bedrock rejects a toolUse block that is not answered in the next turn.
const noResult = "No result provided"

// converter builds the Converse messages of one request.
type converter struct {
	model   *ai.Model
	out     []message
	pending []string // tool use ids of the last assistant turn not yet answered
}

// convertMessages maps the conversation to Converse messages: consecutive
// tool results share one user turn; results that answer no call of the
// assistant turn before them are left out and calls left unanswered get an
// error result; thinking is replayed as signed reasoning only to the model
// that wrote it (Claude needs the signature; other models take it
// unsigned), otherwise kept as text; the reasoning of a failed or aborted
// turn loses its signature, which may be cut short.
func convertMessages(msgs []ai.Message, model *ai.Model) ([]message, error) {
	c := &converter{model: model}
	for _, m := range msgs {
		var err error
		switch m := m.(type) {
		case *ai.UserMessage:
			c.answerPending()
			err = c.user(m.Content)
		case *ai.AssistantMessage:
			c.answerPending()
			c.assistant(m)
		case *ai.ToolResultMessage:
			err = c.toolResult(m)
		}
		if err != nil {
			return nil, err
		}
	}
	c.answerPending()
	return c.out, nil
}

// appendUser adds blocks to the conversation as a user turn, joining a
// user turn before it (Bedrock wants the roles to alternate).
func (c *converter) appendUser(blocks []contentBlock) {
	if n := len(c.out); n > 0 && c.out[n-1].Role == roleUser {
		c.out[n-1].Content = append(c.out[n-1].Content, blocks...)
		return
	}
	c.out = append(c.out, message{Role: roleUser, Content: blocks})
}

// answerPending gives every unanswered tool call an error result.
func (c *converter) answerPending() {
	if len(c.pending) == 0 {
		return
	}
	var blocks []contentBlock
	for _, id := range c.pending {
		blocks = append(blocks, contentBlock{ToolResult: &toolResultBlock{
			ToolUseID: id, Status: statusError, Content: []toolResultContent{resultText(noResult)},
		}})
	}
	c.pending = nil
	c.appendUser(blocks)
}

func (c *converter) user(content ai.ContentList) error {
	var blocks []contentBlock
	for _, b := range content {
		switch b := b.(type) {
		case *ai.TextContent:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, textBlock(validText(b.Text)))
			}
		case *ai.ImageContent:
			if !c.model.SupportsImages() {
				blocks = append(blocks, textBlock(imageOmitted))
				continue
			}
			img, err := decodeImage(b)
			if err != nil {
				return err
			}
			blocks = append(blocks, contentBlock{Image: img})
		}
	}
	if len(blocks) > 0 {
		c.appendUser(blocks)
	}
	return nil
}

func (c *converter) assistant(m *ai.AssistantMessage) {
	failed := m.StopReason == ai.StopReasonError || m.StopReason == ai.StopReasonAborted
	sameModel := m.Provider == c.model.Provider && m.Model == c.model.ID
	var blocks []contentBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, textBlock(validText(b.Text)))
			}
		case *ai.ThinkingContent:
			if blk, ok := c.reasoning(b, sameModel, failed); ok {
				blocks = append(blocks, blk)
			}
		case *ai.ToolCall:
			id := toolID(b.ID)
			args := b.Arguments
			if args == nil {
				args = map[string]any{}
			}
			blocks = append(blocks, contentBlock{ToolUse: &toolUseBlock{ToolUseID: id, Name: b.Name, Input: args}})
			c.pending = append(c.pending, id)
		}
	}
	if len(blocks) == 0 {
		// Bedrock rejects an empty content list (an aborted turn).
		c.pending = nil
		return
	}
	c.out = append(c.out, message{Role: roleAssistant, Content: blocks})
}

// reasoning replays one thinking block; false leaves it out.
func (c *converter) reasoning(t *ai.ThinkingContent, sameModel, failed bool) (contentBlock, bool) {
	sig := t.ThinkingSignature
	if failed || !sameModel {
		sig = ""
	}
	if t.Redacted {
		data, err := base64.StdEncoding.DecodeString(sig)
		if sig == "" || err != nil {
			return contentBlock{}, false // hidden reasoning cannot be shown to another model
		}
		return contentBlock{ReasoningContent: &reasoningContent{RedactedContent: data}}, true
	}
	if strings.TrimSpace(t.Thinking) == "" {
		return contentBlock{}, false
	}
	text := validText(t.Thinking)
	switch {
	case !sameModel:
		return textBlock(text), true
	case !signsThinking(c.model):
		return contentBlock{ReasoningContent: &reasoningContent{ReasoningText: &reasoningText{Text: text}}}, true
	case sig != "":
		return contentBlock{ReasoningContent: &reasoningContent{ReasoningText: &reasoningText{Text: text, Signature: sig}}}, true
	}
	// Claude needs a signature to take reasoning back; without one it is
	// kept as text.
	return textBlock("[Thinking]: " + text), true
}

func (c *converter) toolResult(m *ai.ToolResultMessage) error {
	id := toolID(m.ToolCallID)
	found := false
	for i, p := range c.pending {
		if p == id {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	var content []toolResultContent
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			content = append(content, resultText(validText(b.Text)))
		case *ai.ImageContent:
			if !c.model.SupportsImages() {
				content = append(content, resultText(imageOmitted))
				continue
			}
			img, err := decodeImage(b)
			if err != nil {
				return err
			}
			content = append(content, toolResultContent{Image: img})
		}
	}
	if len(content) == 0 {
		content = []toolResultContent{resultText("(no output)")}
	}
	status := statusSuccess
	if m.IsError {
		status = statusError
	}
	c.appendUser([]contentBlock{{ToolResult: &toolResultBlock{ToolUseID: id, Content: content, Status: status}}})
	return nil
}

// imageOmitted stands in for an image the model cannot take.
const imageOmitted = "(image omitted: model does not support images)"

// resultText is a text part of a tool result.
func resultText(s string) toolResultContent { return toolResultContent{Text: &s} }

// validText replaces invalid UTF-8, which Bedrock rejects (encoding/json
// would otherwise turn each bad byte into U+FFFD on its own).
func validText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// toolID makes a tool call id fit Bedrock's ^[a-zA-Z0-9_-]{1,64}$ (ids of
// other providers may hold "|" or be longer; an empty one gets a name).
func toolID(id string) string {
	if id = ai.CleanToolCallID(id); id == "" {
		return "tooluse_unknown"
	}
	return id
}
