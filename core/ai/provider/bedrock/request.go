package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"

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

// buildInput converts a request to a ConverseStream input. forceCache is
// AWS_BEDROCK_FORCE_CACHE: cache points also for model ids that do not
// name a Claude model (application inference profile ARNs).
func buildInput(req *ai.Request, forceCache bool) (*bedrockruntime.ConverseStreamInput, error) {
	m := req.Model
	cache := cachePoint(req.Cache, m, forceCache)
	msgs, err := convertMessages(req.Messages, m)
	if err != nil {
		return nil, err
	}
	if cache != nil && len(msgs) > 0 && msgs[len(msgs)-1].Role == types.ConversationRoleUser {
		last := &msgs[len(msgs)-1]
		last.Content = append(last.Content, &types.ContentBlockMemberCachePoint{Value: *cache})
	}
	in := &bedrockruntime.ConverseStreamInput{ModelId: aws.String(m.ID), Messages: msgs}
	if s := req.SystemPrompt; strings.TrimSpace(s) != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: validText(s)}}
		if cache != nil {
			in.System = append(in.System, &types.SystemContentBlockMemberCachePoint{Value: *cache})
		}
	}
	if in.ToolConfig, err = toolConfig(req, msgs); err != nil {
		return nil, err
	}
	maxTokens := req.EffectiveMaxTokens()
	fields := thinkingFields(req, &maxTokens)
	if fields != nil && in.ToolConfig != nil {
		// Bedrock refuses thinking together with a forced tool choice.
		switch in.ToolConfig.ToolChoice.(type) {
		case *types.ToolChoiceMemberAny, *types.ToolChoiceMemberTool:
			fields, maxTokens = nil, req.EffectiveMaxTokens()
		}
	}
	in.InferenceConfig = &types.InferenceConfiguration{MaxTokens: aws.Int32(int32(min(maxTokens, 1<<30)))}
	if req.Temperature != nil && fields == nil {
		// Claude rejects a temperature together with extended thinking.
		in.InferenceConfig.Temperature = aws.Float32(float32(*req.Temperature))
	}
	if fields != nil {
		in.AdditionalModelRequestFields = document.NewLazyDocument(fields)
	}
	return in, nil
}

// cachePoint returns the cache point to add after the system prompt and
// the last user turn, or nil: none with retention "none" or for a model
// without prompt caching.
func cachePoint(r ai.CacheRetention, m *ai.Model, force bool) *types.CachePointBlock {
	if r == ai.CacheNone || !(force || supportsPromptCaching(m)) {
		return nil
	}
	cp := &types.CachePointBlock{Type: types.CachePointTypeDefault}
	if r == ai.CacheLong {
		cp.Ttl = types.CacheTTLOneHour
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
func toolConfig(req *ai.Request, msgs []types.Message) (*types.ToolConfiguration, error) {
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
	tc := &types.ToolConfiguration{}
	for _, t := range req.Tools {
		schema := map[string]any{"type": "object", "properties": map[string]any{}}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tool %q: its parameter schema is not valid JSON: %w", t.Name, err)
			}
		}
		tc.Tools = append(tc.Tools, &types.ToolMemberToolSpec{Value: types.ToolSpecification{
			Name: aws.String(t.Name), Description: aws.String(t.Description),
			InputSchema: &types.ToolInputSchemaMemberJson{Value: document.NewLazyDocument(schema)},
		}})
	}
	switch {
	case choice == nil:
		// Left out, as omp does: auto is Bedrock's default.
	case choice.Mode == ai.ToolChoiceAuto:
		tc.ToolChoice = &types.ToolChoiceMemberAuto{}
	case choice.Mode == ai.ToolChoiceRequired:
		tc.ToolChoice = &types.ToolChoiceMemberAny{}
	case choice.Mode == ai.ToolChoiceTool:
		tc.ToolChoice = &types.ToolChoiceMemberTool{Value: types.SpecificToolChoice{Name: aws.String(choice.Name)}}
	}
	return tc, nil
}

// hasToolBlocks reports whether any message carries a tool use or result.
func hasToolBlocks(msgs []types.Message) bool {
	for _, m := range msgs {
		for _, c := range m.Content {
			switch c.(type) {
			case *types.ContentBlockMemberToolUse, *types.ContentBlockMemberToolResult:
				return true
			}
		}
	}
	return false
}

// imageBlock decodes a base64 image into a Converse image block.
func imageBlock(img *ai.ImageContent) (types.ImageBlock, error) {
	var format types.ImageFormat
	switch img.MIMEType {
	case "image/jpeg", "image/jpg":
		format = types.ImageFormatJpeg
	case "image/png":
		format = types.ImageFormatPng
	case "image/gif":
		format = types.ImageFormatGif
	case "image/webp":
		format = types.ImageFormatWebp
	default:
		return types.ImageBlock{}, fmt.Errorf("image type %q is not supported by Bedrock (use JPEG, PNG, GIF or WebP)", img.MIMEType)
	}
	data, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		return types.ImageBlock{}, fmt.Errorf("an image's data is not valid base64: %w", err)
	}
	return types.ImageBlock{Format: format, Source: &types.ImageSourceMemberBytes{Value: data}}, nil
}
