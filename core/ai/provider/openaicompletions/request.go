package openaicompletions

import (
	"crypto/sha256"
	"encoding/json"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// message is one Chat Completions input message.
type message struct {
	Role       string     `json:"role"`
	Content    any        `json:"content"` // string, []part or nil
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type part struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type toolDef struct {
	Type     string      `json:"type"`
	Function functionDef `json:"function"`
}

type functionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// buildPayload turns a request into the Chat Completions JSON body.
func buildPayload(req *ai.Request, c Compat) map[string]any {
	m := req.Model
	p := map[string]any{
		"model":    m.ID,
		"messages": convertMessages(req, c),
		"stream":   true,
	}
	if c.SupportsUsageInStreaming {
		p["stream_options"] = map[string]any{"include_usage": true}
	}
	if c.SupportsStore {
		p["store"] = false
	}
	if c.SupportsPromptCache {
		if req.SessionID != "" {
			p["prompt_cache_key"] = req.SessionID
		}
		if req.Cache == ai.CacheLong {
			p["prompt_cache_retention"] = "24h"
		}
	}
	field := c.MaxTokensField
	if field == "" {
		field = "max_tokens"
	}
	p[field] = req.EffectiveMaxTokens()
	if req.ServiceTier != "" {
		p["service_tier"] = req.ServiceTier
	}
	if req.Temperature != nil {
		p["temperature"] = *req.Temperature
	}
	if len(req.Tools) > 0 {
		tools := make([]toolDef, 0, len(req.Tools))
		for _, t := range req.Tools {
			tools = append(tools, toolDef{Type: "function", Function: functionDef{Name: t.Name, Description: t.Description, Parameters: t.Parameters}})
		}
		p["tools"] = tools
		if tc := toolChoice(req.ToolChoice); tc != nil {
			p["tool_choice"] = tc
		}
	}
	if m.Reasoning && req.Thinking != "" && req.Thinking != ai.ThinkingOff {
		effort := reasoningEffort(req.Thinking, c)
		switch {
		case c.ReasoningObject:
			p["reasoning"] = map[string]any{"effort": effort}
		case c.SupportsReasoningEffort:
			p["reasoning_effort"] = effort
		}
	}
	return p
}

// reasoningEffort maps a thinking level to the effort names OpenAI accepts;
// "minimal" exists only on OpenAI itself and "xhigh" nowhere yet.
func reasoningEffort(l ai.ThinkingLevel, c Compat) string {
	switch l {
	case ai.ThinkingMinimal:
		if c.SupportsStore { // OpenAI proper
			return "minimal"
		}
		return "low"
	case ai.ThinkingXHigh:
		return "high"
	}
	return string(l)
}

// convertMessages renders the system prompt and conversation. Thinking
// blocks are not sent back (compatible servers reject or ignore them); an
// assistant message that failed without content is skipped; images from
// tool results follow the tool messages in a user message, since tool
// messages only carry text.
func convertMessages(req *ai.Request, c Compat) []message {
	var out []message
	if req.SystemPrompt != "" {
		role := "system"
		if c.SupportsDeveloperRole && req.Model.Reasoning {
			role = "developer"
		}
		out = append(out, message{Role: role, Content: req.SystemPrompt})
	}
	images := req.Model.SupportsImages()
	var pendingImages []part
	flushImages := func() {
		if len(pendingImages) == 0 {
			return
		}
		parts := append([]part{{Type: "text", Text: "Attached image(s) from tool result:"}}, pendingImages...)
		out = append(out, message{Role: "user", Content: parts})
		pendingImages = nil
	}
	for _, msg := range req.Messages {
		if _, ok := msg.(*ai.ToolResultMessage); !ok {
			flushImages()
		}
		switch msg := msg.(type) {
		case *ai.UserMessage:
			parts := userParts(msg.Content, images)
			if len(parts) == 0 {
				continue
			}
			if len(parts) == 1 && parts[0].Type == "text" {
				out = append(out, message{Role: "user", Content: parts[0].Text})
			} else {
				out = append(out, message{Role: "user", Content: parts})
			}
		case *ai.AssistantMessage:
			am := message{Role: "assistant"}
			var text strings.Builder
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.TextContent:
					text.WriteString(b.Text)
				case *ai.ToolCall:
					args, _ := json.Marshal(nonNilArgs(b.Arguments))
					am.ToolCalls = append(am.ToolCalls, toolCall{
						ID: normalizeToolCallID(b.ID, c), Type: "function",
						Function: functionCall{Name: b.Name, Arguments: string(args)},
					})
				}
			}
			if text.Len() > 0 {
				am.Content = text.String()
			} else if len(am.ToolCalls) > 0 && c.EmptyContentWithToolCalls {
				am.Content = ""
			}
			if am.Content == nil && len(am.ToolCalls) == 0 {
				continue
			}
			out = append(out, am)
		case *ai.ToolResultMessage:
			var text strings.Builder
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.TextContent:
					if text.Len() > 0 {
						text.WriteString("\n")
					}
					text.WriteString(b.Text)
				case *ai.ImageContent:
					if images {
						pendingImages = append(pendingImages, imagePart(b))
					}
				}
			}
			content := text.String()
			if content == "" {
				content = "(no output)"
			}
			out = append(out, message{Role: "tool", Content: content, ToolCallID: normalizeToolCallID(msg.ToolCallID, c)})
		}
	}
	flushImages()
	return out
}

func userParts(content ai.ContentList, images bool) []part {
	var parts []part
	for _, b := range content {
		switch b := b.(type) {
		case *ai.TextContent:
			parts = append(parts, part{Type: "text", Text: b.Text})
		case *ai.ImageContent:
			if images {
				parts = append(parts, imagePart(b))
			}
		}
	}
	return parts
}

func imagePart(b *ai.ImageContent) part {
	return part{Type: "image_url", ImageURL: &imageURL{URL: "data:" + b.MIMEType + ";base64," + b.Data}}
}

func nonNilArgs(a map[string]any) map[string]any {
	if a == nil {
		return map[string]any{}
	}
	return a
}

// normalizeToolCallID makes an id from any provider acceptable here: an
// OpenAI Responses id "<call_id>|<item_id>" keeps its call id, ids are cut
// to OpenAI's 40 characters, and Mistral gets 9 letters and digits derived
// from the id (the same id always maps to the same value, so a call and its
// result still match).
func normalizeToolCallID(id string, c Compat) string {
	if call, _, ok := strings.Cut(id, "|"); ok {
		id = call
	}
	if c.ToolCallIDFormat == "mistral" {
		const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		if len(id) == 9 && strings.Trim(id, alphabet) == "" {
			return id
		}
		sum := sha256.Sum256([]byte(id))
		b := make([]byte, 9)
		for i := range b {
			b[i] = alphabet[int(sum[i])%len(alphabet)]
		}
		return string(b)
	}
	if len(id) > 40 {
		id = id[:40]
	}
	return id
}

// toolChoice maps a tool choice to Chat Completions' tool_choice value (nil
// leaves the field out: auto).
func toolChoice(c *ai.ToolChoice) any {
	if c == nil {
		return nil
	}
	switch c.Mode {
	case ai.ToolChoiceNone, ai.ToolChoiceRequired:
		return string(c.Mode)
	case ai.ToolChoiceTool:
		return map[string]any{"type": "function", "function": map[string]any{"name": c.Name}}
	}
	return nil
}
