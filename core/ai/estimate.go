package ai

import (
	"encoding/json"
	"strings"

	"github.com/gopi-agent/gopi/tokens"
)

// Constants of the usage estimate.
const (
	// imageTokens is charged per image: an image has no text to count,
	// and providers bill an inline image at roughly this much.
	imageTokens = 1200
	// messageTokens stands for the role markers a chat template wraps
	// around each message.
	messageTokens = 4
)

// EstimateUsage estimates the usage of a response whose provider reported
// none, counting tokens with o200k_base: Input is what req sends (see
// EstimateInputTokens; 0 when req is nil), Output is msg's text, thinking
// and tool-call argument text. The result has Estimated set and no cost.
// The counts are for context tracking and display, not for billing.
func EstimateUsage(req *Request, msg *AssistantMessage) Usage {
	enc, err := tokens.Get(tokens.O200kBase)
	if err != nil {
		return Usage{} // the encoding is embedded; this does not happen
	}
	u := Usage{Output: countOutput(enc, msg), Estimated: true}
	if req != nil {
		u.Input = countInput(enc, req)
	}
	u.TotalTokens = u.Input + u.Output
	return u
}

// EstimateInputTokens counts with o200k_base what a request sends: the
// system prompt, the text of every message (tool calls as name and JSON
// arguments, each image as a fixed 1200 tokens, a few tokens per message
// for its role markers) and the tool definitions as JSON. Thinking blocks
// of earlier turns are left out, as most APIs do not send them back.
func EstimateInputTokens(req *Request) int {
	enc, err := tokens.Get(tokens.O200kBase)
	if err != nil || req == nil {
		return 0
	}
	return countInput(enc, req)
}

func countInput(enc *tokens.Encoding, req *Request) int {
	n := 0
	if req.SystemPrompt != "" {
		n += messageTokens + enc.Estimate(req.SystemPrompt)
	}
	for _, m := range req.Messages {
		var content ContentList
		switch m := m.(type) {
		case *UserMessage:
			content = m.Content
		case *AssistantMessage:
			content = m.Content
		case *ToolResultMessage:
			content = m.Content
		default:
			continue // not sent to providers
		}
		n += messageTokens
		for _, b := range content {
			switch b := b.(type) {
			case *TextContent:
				n += enc.Estimate(b.Text)
			case *ImageContent:
				n += imageTokens
			case *ToolCall:
				n += enc.Estimate(b.Name) + enc.Estimate(argumentText(b))
			}
		}
	}
	for _, t := range req.Tools {
		def, ok := jsonText(t)
		if !ok { // parameters that are not JSON: count the parts
			n += enc.Estimate(t.Name) + enc.Estimate(t.Description) + enc.Estimate(string(t.Parameters))
			continue
		}
		n += enc.Estimate(def)
	}
	return n
}

func countOutput(enc *tokens.Encoding, msg *AssistantMessage) int {
	if msg == nil {
		return 0
	}
	n := 0
	for _, b := range msg.Content {
		switch b := b.(type) {
		case *TextContent:
			n += enc.Estimate(b.Text)
		case *ThinkingContent:
			n += enc.Estimate(b.Thinking)
		case *ToolCall:
			n += enc.Estimate(argumentText(b))
		}
	}
	return n
}

// argumentText returns a call's argument JSON: the streamed text while the
// call is open, else its parsed arguments encoded again.
func argumentText(tc *ToolCall) string {
	if tc.PartialJSON != "" {
		return tc.PartialJSON
	}
	if len(tc.Arguments) == 0 {
		return "{}"
	}
	s, _ := jsonText(tc.Arguments)
	return s
}

// jsonText encodes v as compact JSON without HTML escaping, so that "<"
// is counted as written, not as \u003c.
func jsonText(v any) (string, bool) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}
