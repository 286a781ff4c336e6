package bedrock

import (
	"encoding/base64"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"

	"github.com/gopi-agent/gopi/core/ai"
)

// noResult answers a tool call the conversation left without a result:
// Bedrock rejects a toolUse block that is not answered in the next turn.
const noResult = "No result provided"

// converter builds the Converse messages of one request.
type converter struct {
	model   *ai.Model
	out     []types.Message
	pending []string // tool use ids of the last assistant turn not yet answered
}

// convertMessages maps the conversation to Converse messages: consecutive
// tool results share one user turn; results that answer no call of the
// assistant turn before them are left out and calls left unanswered get an
// error result; thinking is replayed as signed reasoning only to the model
// that wrote it (Claude needs the signature; other models take it
// unsigned), otherwise kept as text; the reasoning of a failed or aborted
// turn loses its signature, which may be cut short.
func convertMessages(msgs []ai.Message, model *ai.Model) ([]types.Message, error) {
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
func (c *converter) appendUser(blocks []types.ContentBlock) {
	if n := len(c.out); n > 0 && c.out[n-1].Role == types.ConversationRoleUser {
		c.out[n-1].Content = append(c.out[n-1].Content, blocks...)
		return
	}
	c.out = append(c.out, types.Message{Role: types.ConversationRoleUser, Content: blocks})
}

// answerPending gives every unanswered tool call an error result.
func (c *converter) answerPending() {
	if len(c.pending) == 0 {
		return
	}
	var blocks []types.ContentBlock
	for _, id := range c.pending {
		blocks = append(blocks, &types.ContentBlockMemberToolResult{Value: types.ToolResultBlock{
			ToolUseId: aws.String(id), Status: types.ToolResultStatusError,
			Content: []types.ToolResultContentBlock{&types.ToolResultContentBlockMemberText{Value: noResult}},
		}})
	}
	c.pending = nil
	c.appendUser(blocks)
}

func (c *converter) user(content ai.ContentList) error {
	var blocks []types.ContentBlock
	for _, b := range content {
		switch b := b.(type) {
		case *ai.TextContent:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, &types.ContentBlockMemberText{Value: validText(b.Text)})
			}
		case *ai.ImageContent:
			if !c.model.SupportsImages() {
				blocks = append(blocks, &types.ContentBlockMemberText{Value: "(image omitted: model does not support images)"})
				continue
			}
			img, err := imageBlock(b)
			if err != nil {
				return err
			}
			blocks = append(blocks, &types.ContentBlockMemberImage{Value: img})
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
	var blocks []types.ContentBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, &types.ContentBlockMemberText{Value: validText(b.Text)})
			}
		case *ai.ThinkingContent:
			if blk := c.reasoning(b, sameModel, failed); blk != nil {
				blocks = append(blocks, blk)
			}
		case *ai.ToolCall:
			id := toolID(b.ID)
			args := b.Arguments
			if args == nil {
				args = map[string]any{}
			}
			blocks = append(blocks, &types.ContentBlockMemberToolUse{Value: types.ToolUseBlock{
				ToolUseId: aws.String(id), Name: aws.String(b.Name), Input: document.NewLazyDocument(args),
			}})
			c.pending = append(c.pending, id)
		}
	}
	if len(blocks) == 0 {
		// Bedrock rejects an empty content list (an aborted turn).
		c.pending = nil
		return
	}
	c.out = append(c.out, types.Message{Role: types.ConversationRoleAssistant, Content: blocks})
}

// reasoning replays one thinking block, or returns nil to leave it out.
func (c *converter) reasoning(t *ai.ThinkingContent, sameModel, failed bool) types.ContentBlock {
	sig := t.ThinkingSignature
	if failed || !sameModel {
		sig = ""
	}
	if t.Redacted {
		data, err := base64.StdEncoding.DecodeString(sig)
		if sig == "" || err != nil {
			return nil // hidden reasoning cannot be shown to another model
		}
		return &types.ContentBlockMemberReasoningContent{Value: &types.ReasoningContentBlockMemberRedactedContent{Value: data}}
	}
	if strings.TrimSpace(t.Thinking) == "" {
		return nil
	}
	text := validText(t.Thinking)
	switch {
	case !sameModel:
		return &types.ContentBlockMemberText{Value: text}
	case !signsThinking(c.model):
		return &types.ContentBlockMemberReasoningContent{Value: &types.ReasoningContentBlockMemberReasoningText{
			Value: types.ReasoningTextBlock{Text: aws.String(text)}}}
	case sig != "":
		return &types.ContentBlockMemberReasoningContent{Value: &types.ReasoningContentBlockMemberReasoningText{
			Value: types.ReasoningTextBlock{Text: aws.String(text), Signature: aws.String(sig)}}}
	}
	// Claude needs a signature to take reasoning back; without one it is
	// kept as text.
	return &types.ContentBlockMemberText{Value: "[Thinking]: " + text}
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
	var content []types.ToolResultContentBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			content = append(content, &types.ToolResultContentBlockMemberText{Value: validText(b.Text)})
		case *ai.ImageContent:
			if !c.model.SupportsImages() {
				content = append(content, &types.ToolResultContentBlockMemberText{Value: "(image omitted: model does not support images)"})
				continue
			}
			img, err := imageBlock(b)
			if err != nil {
				return err
			}
			content = append(content, &types.ToolResultContentBlockMemberImage{Value: img})
		}
	}
	if len(content) == 0 {
		content = []types.ToolResultContentBlock{&types.ToolResultContentBlockMemberText{Value: "(no output)"}}
	}
	status := types.ToolResultStatusSuccess
	if m.IsError {
		status = types.ToolResultStatusError
	}
	c.appendUser([]types.ContentBlock{&types.ContentBlockMemberToolResult{Value: types.ToolResultBlock{
		ToolUseId: aws.String(id), Content: content, Status: status,
	}}})
	return nil
}

// validText replaces invalid UTF-8, which the SDK's JSON encoder would
// otherwise send as is and Bedrock reject.
func validText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// toolID makes a tool call id fit Bedrock's ^[a-zA-Z0-9_-]{1,64}$ (ids of
// other providers may hold "|" or be longer; an empty one gets a name).
func toolID(id string) string {
	if id = ai.CleanToolCallID(id); id == "" {
		return "tooluse_unknown"
	}
	return id
}
