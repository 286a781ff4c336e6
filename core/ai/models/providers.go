package models

import (
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/openaicompletions"

	// Provider implementations register themselves with core/ai.
	_ "github.com/gopi-agent/gopi/core/ai/provider/anthropic"
	_ "github.com/gopi-agent/gopi/core/ai/provider/azureopenai"
	_ "github.com/gopi-agent/gopi/core/ai/provider/bedrock"
	_ "github.com/gopi-agent/gopi/core/ai/provider/geminicli"
	_ "github.com/gopi-agent/gopi/core/ai/provider/google"
	_ "github.com/gopi-agent/gopi/core/ai/provider/openaicodex"
	_ "github.com/gopi-agent/gopi/core/ai/provider/openairesponses"
	_ "github.com/gopi-agent/gopi/core/ai/provider/vertex"
)

// ProviderInfo describes one provider: where it listens and how it
// authenticates.
type ProviderInfo struct {
	Name        string            // provider name used in "provider/model" ids
	Title       string            // human-facing name
	API         ai.API            // default wire API of its models
	BaseURL     string            // default API root
	BaseURLEnv  string            // environment variable overriding BaseURL ("" if none)
	KeyEnv      []string          // environment variables holding the key, first set wins
	KeyOptional bool              // works without a key (local servers)
	APIKey      string            // key from models.yml: a literal, or an environment variable name
	Headers     map[string]string // extra headers for every request (models.yml)
	Custom      bool              // defined or changed by models.yml
}

// builtinProviders are the first-party APIs; the OpenAI-compatible presets
// are appended from openaicompletions.Presets.
func builtinProviders() []*ProviderInfo {
	out := []*ProviderInfo{
		{Name: "anthropic", Title: "Anthropic", API: ai.APIAnthropicMessages, BaseURL: "https://api.anthropic.com",
			KeyEnv: []string{"ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"}},
		{Name: "openai", Title: "OpenAI", API: ai.APIOpenAIResponses, BaseURL: "https://api.openai.com/v1",
			KeyEnv: []string{"OPENAI_API_KEY"}},
		{Name: "google", Title: "Google Gemini", API: ai.APIGoogleGenerativeAI, BaseURL: "https://generativelanguage.googleapis.com/v1beta",
			KeyEnv: []string{"GEMINI_API_KEY"}},
	}
	for _, p := range openaicompletions.Presets {
		out = append(out, &ProviderInfo{
			Name: p.Name, Title: p.Title, API: ai.APIOpenAICompletions, BaseURL: p.BaseURL,
			BaseURLEnv: p.BaseURLEnv, KeyEnv: append([]string(nil), p.KeyEnv...), KeyOptional: p.KeyOptional,
		})
	}
	return out
}
