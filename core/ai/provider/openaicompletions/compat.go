package openaicompletions

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// Compat lists the ways an OpenAI-compatible server departs from OpenAI.
// Its keys double as the names of a model's "compat" map entries.
type Compat struct {
	MaxTokensField           string // "max_completion_tokens" (OpenAI) or "max_tokens" (most others)
	SupportsUsageInStreaming bool   // accepts stream_options.include_usage
	SupportsDeveloperRole    bool   // system prompt as role "developer" for reasoning models
	SupportsReasoningEffort  bool   // accepts "reasoning_effort"
	SupportsStore            bool   // accepts "store": false
	SupportsPromptCache      bool   // accepts prompt_cache_key and prompt_cache_retention (OpenAI)
	ReasoningObject          bool   // thinking is requested as {"reasoning": {"effort": …}} (OpenRouter)
	ToolCallIDFormat         string // "" (any id up to 40 chars) or "mistral" (exactly 9 letters/digits)
	// EmptyContentWithToolCalls sends an assistant turn that has tool calls
	// and no text with content "" rather than null. llama-cpp-python's
	// server rejects null (HTTP 500) and its chatml-function-calling
	// template fails on a missing content; other servers take null, as
	// OpenAI documents it.
	EmptyContentWithToolCalls bool
}

// openAICompat is what api.openai.com accepts.
var openAICompat = Compat{
	MaxTokensField:           "max_completion_tokens",
	SupportsUsageInStreaming: true,
	SupportsDeveloperRole:    true,
	SupportsReasoningEffort:  true,
	SupportsStore:            true,
	SupportsPromptCache:      true,
}

// genericCompat is the conservative default for an unknown compatible server.
var genericCompat = Compat{
	MaxTokensField:           "max_tokens",
	SupportsUsageInStreaming: true,
}

// CompatFor resolves the quirks for a model: the preset of its provider (or
// OpenAI's for provider "openai", or a generic default), then the model's
// compat map, whose keys are the lower-camel field names
// (maxTokensField, supportsUsageInStreaming, supportsDeveloperRole,
// supportsReasoningEffort, supportsStore, supportsPromptCache, reasoningObject,
// toolCallIdFormat, emptyContentWithToolCalls).
func CompatFor(m *ai.Model) Compat {
	c := genericCompat
	if m == nil {
		return c
	}
	switch {
	case m.Provider == "openai" || strings.Contains(m.BaseURL, "api.openai.com"):
		c = openAICompat
	default:
		if p, ok := PresetByName(m.Provider); ok {
			c = p.Compat
		}
	}
	for k, v := range m.Compat {
		switch k {
		case "maxTokensField":
			if s, ok := v.(string); ok && (s == "max_tokens" || s == "max_completion_tokens") {
				c.MaxTokensField = s
			}
		case "supportsUsageInStreaming":
			setBool(&c.SupportsUsageInStreaming, v)
		case "supportsDeveloperRole":
			setBool(&c.SupportsDeveloperRole, v)
		case "supportsReasoningEffort":
			setBool(&c.SupportsReasoningEffort, v)
		case "supportsStore":
			setBool(&c.SupportsStore, v)
		case "supportsPromptCache":
			setBool(&c.SupportsPromptCache, v)
		case "reasoningObject":
			setBool(&c.ReasoningObject, v)
		case "emptyContentWithToolCalls":
			setBool(&c.EmptyContentWithToolCalls, v)
		case "toolCallIdFormat":
			if s, ok := v.(string); ok {
				c.ToolCallIDFormat = s
			}
		}
	}
	return c
}

func setBool(dst *bool, v any) {
	if b, ok := v.(bool); ok {
		*dst = b
	}
}
