package openairesponses

import (
	"encoding/json"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// BuildPayload turns a request into the Responses JSON body.
func BuildPayload(req *ai.Request) map[string]any {
	m := req.Model
	p := map[string]any{
		"model":             m.ID,
		"input":             ConvertInput(req),
		"stream":            true,
		"store":             false,
		"max_output_tokens": req.EffectiveMaxTokens(),
	}
	if req.Temperature != nil {
		p["temperature"] = *req.Temperature
	}
	if req.SessionID != "" {
		p["prompt_cache_key"] = req.SessionID
	}
	if req.ServiceTier != "" {
		p["service_tier"] = req.ServiceTier
	}
	if req.Cache == ai.CacheLong {
		p["prompt_cache_retention"] = "24h"
	}
	if len(req.Tools) > 0 {
		p["tools"] = Tools(req.Tools)
		if tc := ToolChoice(req.ToolChoice); tc != nil {
			p["tool_choice"] = tc
		}
	}
	if m.Reasoning && req.Thinking != "" && req.Thinking != ai.ThinkingOff {
		p["reasoning"] = map[string]any{"effort": reasoningEffort(req.Thinking), "summary": "auto"}
		p["include"] = []string{"reasoning.encrypted_content"}
	}
	return p
}

// reasoningEffort maps a thinking level to an effort name; "xhigh" has no
// equivalent on most models and becomes "high".
func reasoningEffort(l ai.ThinkingLevel) string {
	if l == ai.ThinkingXHigh {
		return "high"
	}
	return string(l)
}

// Tools renders tool definitions as Responses function tools (not strict:
// our schemas are not written for strict mode).
func Tools(defs []ai.Tool) []map[string]any {
	tools := make([]map[string]any, 0, len(defs))
	for _, t := range defs {
		tool := map[string]any{"type": "function", "name": t.Name, "description": t.Description, "strict": false}
		if len(t.Parameters) > 0 {
			tool["parameters"] = t.Parameters
		}
		tools = append(tools, tool)
	}
	return tools
}

// ConvertInput renders the system prompt and conversation as input items.
// Reasoning items and item ids are replayed only for messages the request's
// model produced through the same API; thinking from other models is
// dropped. Images in tool results follow as a user message, since
// function_call_output is text.
func ConvertInput(req *ai.Request) []any {
	m := req.Model
	var items []any
	if req.SystemPrompt != "" {
		role := "system"
		if m.Reasoning {
			role = "developer"
		}
		items = append(items, map[string]any{"role": role, "content": req.SystemPrompt})
	}
	images := m.SupportsImages()
	var pending []any
	flush := func() {
		if len(pending) > 0 {
			content := append([]any{map[string]any{"type": "input_text", "text": "Attached image(s) from tool result:"}}, pending...)
			items = append(items, map[string]any{"role": "user", "content": content})
			pending = nil
		}
	}
	for _, msg := range req.Messages {
		if _, ok := msg.(*ai.ToolResultMessage); !ok {
			flush()
		}
		switch msg := msg.(type) {
		case *ai.UserMessage:
			var content []any
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.TextContent:
					content = append(content, map[string]any{"type": "input_text", "text": b.Text})
				case *ai.ImageContent:
					if images {
						content = append(content, inputImage(b))
					}
				}
			}
			if len(content) > 0 {
				items = append(items, map[string]any{"role": "user", "content": content})
			}
		case *ai.AssistantMessage:
			same := msg.API == m.API && msg.Provider == m.Provider && msg.Model == m.ID
			if msg.StopReason == ai.StopReasonError || msg.StopReason == ai.StopReasonAborted {
				if len(msg.Content) == 0 {
					continue
				}
			}
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.ThinkingContent:
					if !same || b.ThinkingSignature == "" {
						continue
					}
					var item map[string]any
					if json.Unmarshal([]byte(b.ThinkingSignature), &item) == nil && item["type"] == "reasoning" {
						items = append(items, item)
					}
				case *ai.TextContent:
					if b.Text == "" {
						continue
					}
					item := map[string]any{
						"type": "message", "role": "assistant", "status": "completed",
						"content": []any{map[string]any{"type": "output_text", "text": b.Text, "annotations": []any{}}},
					}
					if same && strings.HasPrefix(b.TextSignature, "msg") {
						item["id"] = b.TextSignature
					}
					items = append(items, item)
				case *ai.ToolCall:
					callID, itemID, _ := strings.Cut(b.ID, "|")
					args, _ := json.Marshal(nonNil(b.Arguments))
					item := map[string]any{"type": "function_call", "call_id": callID, "name": b.Name, "arguments": string(args)}
					if same && strings.HasPrefix(itemID, "fc") {
						item["id"] = itemID
					}
					items = append(items, item)
				}
			}
		case *ai.ToolResultMessage:
			callID, _, _ := strings.Cut(msg.ToolCallID, "|")
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
						pending = append(pending, inputImage(b))
					}
				}
			}
			out := text.String()
			if out == "" {
				out = "(no output)"
			}
			items = append(items, map[string]any{"type": "function_call_output", "call_id": callID, "output": out})
		}
	}
	flush()
	if items == nil {
		items = []any{}
	}
	return items
}

func inputImage(b *ai.ImageContent) map[string]any {
	return map[string]any{"type": "input_image", "detail": "auto", "image_url": "data:" + b.MIMEType + ";base64," + b.Data}
}

func nonNil(a map[string]any) map[string]any {
	if a == nil {
		return map[string]any{}
	}
	return a
}

// ToolChoice maps a tool choice to the Responses API's tool_choice value
// (nil leaves the field out: auto).
func ToolChoice(c *ai.ToolChoice) any {
	if c == nil {
		return nil
	}
	switch c.Mode {
	case ai.ToolChoiceNone, ai.ToolChoiceRequired:
		return string(c.Mode)
	case ai.ToolChoiceTool:
		return map[string]any{"type": "function", "name": c.Name}
	}
	return nil
}
