package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// wire types of the Messages API request.
type (
	cacheControl struct {
		Type string `json:"type"`          // "ephemeral"
		TTL  string `json:"ttl,omitempty"` // "1h" for long retention
	}
	imageSource struct {
		Type      string `json:"type"` // "base64"
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	}
	block struct {
		Type         string        `json:"type"`
		Text         *string       `json:"text,omitempty"`
		Thinking     *string       `json:"thinking,omitempty"`
		Signature    *string       `json:"signature,omitempty"`
		Data         string        `json:"data,omitempty"`
		Source       *imageSource  `json:"source,omitempty"`
		ID           string        `json:"id,omitempty"`
		Name         string        `json:"name,omitempty"`
		Input        any           `json:"input,omitempty"` // never nil for tool_use: {} must be sent
		ToolUseID    string        `json:"tool_use_id,omitempty"`
		Content      []block       `json:"content,omitempty"`
		IsError      bool          `json:"is_error,omitempty"`
		CacheControl *cacheControl `json:"cache_control,omitempty"`
	}
	message struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}
	tool struct {
		Name         string          `json:"name"`
		Description  string          `json:"description,omitempty"`
		InputSchema  json.RawMessage `json:"input_schema"`
		CacheControl *cacheControl   `json:"cache_control,omitempty"`
	}
	thinking struct {
		Type         string `json:"type"` // "enabled"
		BudgetTokens int    `json:"budget_tokens"`
	}
	payload struct {
		Model       string    `json:"model"`
		MaxTokens   int       `json:"max_tokens"`
		Stream      bool      `json:"stream"`
		System      []block   `json:"system,omitempty"`
		Messages    []message `json:"messages"`
		Tools       []tool    `json:"tools,omitempty"`
		ToolChoice  any       `json:"tool_choice,omitempty"`
		Thinking    *thinking `json:"thinking,omitempty"`
		Temperature *float64  `json:"temperature,omitempty"`
	}
)

func strp(s string) *string { return &s }

// buildPayload converts a request to the Messages API body.
func buildPayload(req *ai.Request) *payload {
	p := &payload{Model: req.Model.ID, MaxTokens: req.EffectiveMaxTokens(), Stream: true, Temperature: req.Temperature}
	cache := cacheMark(req.Cache)
	if req.SystemPrompt != "" {
		p.System = []block{{Type: "text", Text: strp(req.SystemPrompt), CacheControl: cache}}
	}
	p.Messages = convertMessages(req.Messages, req.Model)
	// Cache mark on the last block of the last user turn, so the whole
	// conversation prefix is cached for the next request.
	if cache != nil {
		for i := len(p.Messages) - 1; i >= 0; i-- {
			if p.Messages[i].Role == "user" && len(p.Messages[i].Content) > 0 {
				c := p.Messages[i].Content
				c[len(c)-1].CacheControl = cache
				break
			}
		}
	}
	for _, t := range req.Tools {
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		p.Tools = append(p.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	if cache != nil && len(p.Tools) > 0 {
		p.Tools[len(p.Tools)-1].CacheControl = cache
	}
	p.ToolChoice = toolChoice(req.ToolChoice)
	// The Messages API refuses extended thinking together with a forced
	// tool: a one-shot forced call goes without thinking.
	forced := req.ToolChoice != nil && (req.ToolChoice.Mode == ai.ToolChoiceTool || req.ToolChoice.Mode == ai.ToolChoiceRequired)
	if !forced && req.Model.Reasoning && req.Thinking != "" && req.Thinking != ai.ThinkingOff {
		budget := ai.ThinkingBudgets[req.Thinking]
		if budget == 0 {
			budget = ai.ThinkingBudgets[ai.ThinkingMedium]
		}
		// max_tokens counts thinking too: leave the output room on top of
		// the budget, within the model's limit.
		maxTokens := p.MaxTokens + budget
		if req.Model.MaxTokens > 0 && maxTokens > req.Model.MaxTokens {
			maxTokens = req.Model.MaxTokens
		}
		if maxTokens <= budget {
			budget = max(1024, maxTokens-1024)
		}
		p.MaxTokens = maxTokens
		p.Thinking = &thinking{Type: "enabled", BudgetTokens: budget}
		p.Temperature = nil // Anthropic rejects temperature with thinking
	}
	return p
}

func cacheMark(r ai.CacheRetention) *cacheControl {
	switch r {
	case ai.CacheNone:
		return nil
	case ai.CacheLong:
		return &cacheControl{Type: "ephemeral", TTL: "1h"}
	}
	return &cacheControl{Type: "ephemeral"}
}

// convertMessages maps the conversation, merging consecutive tool results
// into one user turn and answering tool calls left without a result (the
// API rejects unanswered tool_use), and leaving out results that answer no
// call of the assistant turn before them (the API rejects those too). Of a
// failed or aborted assistant turn the thinking is left out: its signature
// may be cut short.
func convertMessages(msgs []ai.Message, model *ai.Model) []message {
	var out []message
	var pending []string // tool_use ids of the last assistant turn still unanswered
	answer := func(id string) bool {
		for i, p := range pending {
			if p == id {
				pending = append(pending[:i], pending[i+1:]...)
				return true
			}
		}
		return false
	}
	flushPending := func() {
		if len(pending) == 0 {
			return
		}
		var blocks []block
		for _, id := range pending {
			blocks = append(blocks, block{Type: "tool_result", ToolUseID: id, IsError: true,
				Content: []block{{Type: "text", Text: strp("No result provided")}}})
		}
		pending = nil
		appendUser(&out, blocks)
	}
	for _, m := range msgs {
		switch m := m.(type) {
		case *ai.UserMessage:
			flushPending()
			blocks := userBlocks(m.Content, model)
			if len(blocks) > 0 {
				appendUser(&out, blocks)
			}
		case *ai.AssistantMessage:
			flushPending()
			failed := m.StopReason == ai.StopReasonError || m.StopReason == ai.StopReasonAborted
			sameModel := m.Provider == model.Provider && m.Model == model.ID
			var blocks []block
			for _, c := range m.Content {
				if _, ok := c.(*ai.ThinkingContent); ok && failed {
					continue
				}
				switch c := c.(type) {
				case *ai.TextContent:
					if strings.TrimSpace(c.Text) != "" {
						blocks = append(blocks, block{Type: "text", Text: strp(c.Text)})
					}
				case *ai.ThinkingContent:
					switch {
					case c.Redacted && sameModel:
						blocks = append(blocks, block{Type: "redacted_thinking", Data: c.ThinkingSignature})
					case c.ThinkingSignature != "" && sameModel:
						blocks = append(blocks, block{Type: "thinking", Thinking: strp(c.Thinking), Signature: strp(c.ThinkingSignature)})
					case strings.TrimSpace(c.Thinking) != "":
						// Unsigned or foreign reasoning cannot be replayed as
						// thinking; keep it visible as text.
						blocks = append(blocks, block{Type: "text", Text: strp(c.Thinking)})
					}
				case *ai.ToolCall:
					id := normalizeToolID(c.ID)
					args := c.Arguments
					if args == nil {
						args = map[string]any{}
					}
					blocks = append(blocks, block{Type: "tool_use", ID: id, Name: c.Name, Input: args})
					pending = append(pending, id)
				}
			}
			if len(blocks) > 0 {
				out = append(out, message{Role: "assistant", Content: blocks})
			} else {
				pending = nil
			}
		case *ai.ToolResultMessage:
			id := normalizeToolID(m.ToolCallID)
			if !answer(id) {
				continue
			}
			content := userBlocks(m.Content, model)
			if len(content) == 0 {
				content = []block{{Type: "text", Text: strp("(no output)")}}
			}
			appendUser(&out, []block{{Type: "tool_result", ToolUseID: id, Content: content, IsError: m.IsError}})
		}
	}
	return out
}

// appendUser adds blocks as a user turn, merging with a preceding user turn
// (the API wants alternating roles; tool results and follow-up text share
// one turn).
func appendUser(out *[]message, blocks []block) {
	if n := len(*out); n > 0 && (*out)[n-1].Role == "user" {
		(*out)[n-1].Content = append((*out)[n-1].Content, blocks...)
		return
	}
	*out = append(*out, message{Role: "user", Content: blocks})
}

func userBlocks(content ai.ContentList, model *ai.Model) []block {
	var out []block
	for _, c := range content {
		switch c := c.(type) {
		case *ai.TextContent:
			if c.Text != "" {
				out = append(out, block{Type: "text", Text: strp(c.Text)})
			}
		case *ai.ImageContent:
			if model.SupportsImages() {
				out = append(out, block{Type: "image", Source: &imageSource{Type: "base64", MediaType: c.MIMEType, Data: c.Data}})
			} else {
				out = append(out, block{Type: "text", Text: strp("(image omitted: model does not support images)")})
			}
		}
	}
	return out
}

// normalizeToolID makes an id match the API's ^[a-zA-Z0-9_-]{1,64}$ (ids
// from other providers may contain "|" or be longer).
func normalizeToolID(id string) string {
	if id = ai.CleanToolCallID(id); id == "" {
		return "toolu_unknown"
	}
	return id
}

// toolChoice maps a tool choice to the Messages API's tool_choice object
// (nil leaves the field out: auto).
func toolChoice(c *ai.ToolChoice) any {
	if c == nil {
		return nil
	}
	switch c.Mode {
	case ai.ToolChoiceNone:
		return map[string]any{"type": "none"}
	case ai.ToolChoiceRequired:
		return map[string]any{"type": "any"}
	case ai.ToolChoiceTool:
		return map[string]any{"type": "tool", "name": c.Name}
	}
	return nil
}
