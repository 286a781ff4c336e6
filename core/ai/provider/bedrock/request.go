package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// minOutputTokens is the room kept for the visible answer when a thinking
// budget has to fit under max tokens.
const minOutputTokens = 1024

// thinkingBudgets are the Claude-on-Bedrock budgets per level; xhigh gets
// no more than high (Bedrock's budget-based Claude models stop there).
var thinkingBudgets = map[ai.ThinkingLevel]int{
	ai.ThinkingMinimal: 1024,
	ai.ThinkingLow:     2048,
	ai.ThinkingMedium:  8192,
	ai.ThinkingHigh:    16384,
	ai.ThinkingXHigh:   16384,
}

// buildInput converts a request to a ConverseStream body. forceCache is
// AWS_BEDROCK_FORCE_CACHE: cache points also for model ids that do not
// name a Claude model (application inference profile ARNs).
func buildInput(req *ai.Request, forceCache bool) (*converseRequest, error) {
	m := req.Model
	cache := cachePoint(req.Cache, m, forceCache)
	msgs, err := convertMessages(req.Messages, m)
	if err != nil {
		return nil, err
	}
	if cache != nil && len(msgs) > 0 && msgs[len(msgs)-1].Role == roleUser {
		last := &msgs[len(msgs)-1]
		last.Content = append(last.Content, contentBlock{CachePoint: cache})
	}
	if msgs == nil {
		msgs = []message{}
	}
	in := &converseRequest{Messages: msgs}
	if s := req.SystemPrompt; strings.TrimSpace(s) != "" {
		text := validText(s)
		in.System = []systemBlock{{Text: &text}}
		if cache != nil {
			in.System = append(in.System, systemBlock{CachePoint: cache})
		}
	}
	if in.ToolConfig, err = toolConfig(req, msgs); err != nil {
		return nil, err
	}
	maxTokens := req.EffectiveMaxTokens()
	fields := thinkingFields(req, &maxTokens)
	if fields != nil && in.ToolConfig != nil {
		// Bedrock refuses thinking together with a forced tool choice.
		if tc := in.ToolConfig.ToolChoice; tc != nil && (tc.Any != nil || tc.Tool != nil) {
			fields, maxTokens = nil, req.EffectiveMaxTokens()
		}
	}
	in.InferenceConfig = &inferenceConfig{MaxTokens: min(maxTokens, 1<<30)}
	if req.Temperature != nil && fields == nil {
		// Claude rejects a temperature together with extended thinking.
		t := *req.Temperature
		in.InferenceConfig.Temperature = &t
	}
	in.AdditionalModelRequestFields = fields
	return in, nil
}

// cachePoint returns the cache point to add after the system prompt and
// the last user turn, or nil: none with retention "none" or for a model
// without prompt caching.
func cachePoint(r ai.CacheRetention, m *ai.Model, force bool) *cachePointBlock {
	if r == ai.CacheNone || !(force || supportsPromptCaching(m)) {
		return nil
	}
	cp := &cachePointBlock{Type: "default"}
	if r == ai.CacheLong {
		cp.TTL = "1h"
	}
	return cp
}

// supportsPromptCaching reports whether Bedrock takes cache points for the
// model: it has cache prices, or its id names Claude 3.5 Haiku, 3.7
// Sonnet, a Claude 4.x model or a newer Haiku.
func supportsPromptCaching(m *ai.Model) bool {
	if m.Cost.CacheRead > 0 || m.Cost.CacheWrite > 0 {
		return true
	}
	id := strings.ToLower(m.ID)
	if !strings.Contains(id, "claude") {
		return false
	}
	return strings.Contains(id, "-4-") || strings.Contains(id, "-4.") ||
		strings.Contains(id, "claude-3-7-sonnet") || strings.Contains(id, "claude-3-5-haiku") ||
		strings.Contains(id, "claude-haiku")
}

// signsThinking reports whether the model takes reasoning signatures: only
// Anthropic's models do; the others reject the signature field.
func signsThinking(m *ai.Model) bool {
	id := strings.ToLower(m.ID)
	return strings.Contains(id, "anthropic.claude") || strings.Contains(id, "anthropic/claude")
}

// adaptiveThinking reports whether the model takes Anthropic's adaptive
// thinking with an effort instead of a token budget: Claude Opus 4.6 and
// later on Bedrock.
func adaptiveThinking(m *ai.Model) bool {
	id := strings.ToLower(m.ID)
	i := strings.Index(id, "claude-opus-")
	if i < 0 {
		return false
	}
	var major, minor int
	rest := id[i+len("claude-opus-"):]
	if n, _ := fmt.Sscanf(strings.ReplaceAll(rest, ".", "-"), "%d-%d", &major, &minor); n < 1 {
		return false
	}
	if minor > 99 { // a date such as claude-opus-4-20250514
		minor = 0
	}
	return major > 4 || major == 4 && minor >= 6
}

// thinkingFields returns the additionalModelRequestFields that turn
// thinking on, or nil; a budget that does not fit under *maxTokens raises
// it (within the model's limit) or shrinks the budget.
func thinkingFields(req *ai.Request, maxTokens *int) map[string]any {
	level := req.Thinking
	if !req.Model.Reasoning || level == "" || level == ai.ThinkingOff {
		return nil
	}
	if adaptiveThinking(req.Model) {
		effort := map[ai.ThinkingLevel]string{
			ai.ThinkingMinimal: "low", ai.ThinkingLow: "low", ai.ThinkingMedium: "medium",
			ai.ThinkingHigh: "high", ai.ThinkingXHigh: "max",
		}[level]
		if effort == "" {
			effort = "medium"
		}
		return map[string]any{"thinking": map[string]any{"type": "adaptive"}, "output_config": map[string]any{"effort": effort}}
	}
	budget := thinkingBudgets[level]
	if budget == 0 {
		budget = thinkingBudgets[ai.ThinkingMedium]
	}
	if *maxTokens <= budget {
		want := budget + minOutputTokens
		if limit := req.Model.MaxTokens; limit > 0 {
			want = min(want, limit)
		}
		*maxTokens = max(*maxTokens, want)
	}
	if *maxTokens <= budget {
		budget = max(0, *maxTokens-minOutputTokens)
	}
	return map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": budget}}
}

// toolConfig returns the tool configuration, or nil when there are no
// tools. Converse has no "none" choice: with ToolChoiceNone the tools are
// left out, unless the conversation already holds tool blocks, which
// Bedrock only accepts with a tool configuration (then no choice is sent:
// auto).
func toolConfig(req *ai.Request, msgs []message) (*toolConfiguration, error) {
	if len(req.Tools) == 0 {
		return nil, nil
	}
	choice := req.ToolChoice
	if choice != nil && choice.Mode == ai.ToolChoiceNone {
		if !hasToolBlocks(msgs) {
			return nil, nil
		}
		choice = nil
	}
	tc := &toolConfiguration{}
	for _, t := range req.Tools {
		schema := map[string]any{"type": "object", "properties": map[string]any{}}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tool %q: its parameter schema is not valid JSON: %w", t.Name, err)
			}
		}
		tc.Tools = append(tc.Tools, toolEntry{ToolSpec: toolSpec{Name: t.Name, Description: t.Description, InputSchema: inputSchema{JSON: schema}}})
	}
	switch {
	case choice == nil:
		// Left out, as omp does: auto is Bedrock's default.
	case choice.Mode == ai.ToolChoiceAuto:
		tc.ToolChoice = &toolChoice{Auto: &struct{}{}}
	case choice.Mode == ai.ToolChoiceRequired:
		tc.ToolChoice = &toolChoice{Any: &struct{}{}}
	case choice.Mode == ai.ToolChoiceTool:
		tc.ToolChoice = &toolChoice{Tool: &specificTool{Name: choice.Name}}
	}
	return tc, nil
}

// hasToolBlocks reports whether any message carries a tool use or result.
func hasToolBlocks(msgs []message) bool {
	for _, m := range msgs {
		for _, c := range m.Content {
			if c.ToolUse != nil || c.ToolResult != nil {
				return true
			}
		}
	}
	return false
}

// decodeImage decodes a base64 image into a Converse image block.
func decodeImage(img *ai.ImageContent) (*imageBlock, error) {
	var format string
	switch img.MIMEType {
	case "image/jpeg", "image/jpg":
		format = "jpeg"
	case "image/png":
		format = "png"
	case "image/gif":
		format = "gif"
	case "image/webp":
		format = "webp"
	default:
		return nil, fmt.Errorf("image type %q is not supported by Bedrock (use JPEG, PNG, GIF or WebP)", img.MIMEType)
	}
	data, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		return nil, fmt.Errorf("an image's data is not valid base64: %w", err)
	}
	return &imageBlock{Format: format, Source: imageSource{Bytes: data}}, nil
}
