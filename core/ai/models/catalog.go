package models

import "github.com/gopi-agent/gopi/core/ai"

//go:generate go run ./internal/catalogen -in internal/catalogen/pi-ai-models.json.gz -out catalog_data.go

// The built-in catalogue is omp's: every provider and model that
// @oh-my-pi/pi-ai publishes in its models.json, turned into static Go data
// by internal/catalogen (catalog_data.go; scripts/update-catalog.sh fetches
// a release and regenerates it). The models are ai.Model values in a fixed
// array, so loading the catalogue costs one pointer per model and the
// binary's data pages are only touched when a model is looked at. The
// registry hands out pointers into that array: a model from the registry is
// shared and read-only, and the registry copies one before changing it.
// The few per-model headers and compat settings (maps, which cannot be
// static) are added when a request is prepared (Registry.Resolve).

// Input kinds shared by models built at run time (never modify them). The
// static tables spell their slices out: a reference to these variables
// would make the compiler fill the tables in at start-up.
var (
	inText      = []string{ai.InputText}
	inTextImage = []string{ai.InputText, ai.InputImage}
)

// catalogProvider is one provider of the generated catalogue: the API and
// base URL most of its models use, and its range in catalogModels.
type catalogProvider struct {
	name, api, baseURL string
	first, count       int
}

// catalogModelsOf appends pointers to the catalogue's models of a provider
// to dst: its default model (omp's, when the catalogue has it) first, so
// that "the first model with credentials" is the provider's default, then
// the others in the catalogue's order.
func catalogModelsOf(dst []*ai.Model, p *catalogProvider, defaultID string) []*ai.Model {
	def := -1
	for i := p.first; i < p.first+p.count; i++ {
		if catalogModels[i].ID == defaultID {
			def = i
			dst = append(dst, &catalogModels[i])
		}
	}
	for i := p.first; i < p.first+p.count; i++ {
		if i != def {
			dst = append(dst, &catalogModels[i])
		}
	}
	return dst
}

// Resolve returns the model with the request headers and compat settings
// the catalogue gives it. The static catalogue cannot hold maps, so its
// models carry none; Prepare fills them in for every request, and a
// listing that shows them (gopi models --json) asks here. A model that has
// headers or compat of its own (models.yml) is returned as it is.
func (r *Registry) Resolve(m *ai.Model) *ai.Model {
	if m == nil || m.Headers != nil || m.Compat != nil {
		return m
	}
	h, c := catalogMaps(m.Provider + "/" + m.ID)
	if h == nil && c == nil {
		return m
	}
	out := *m
	out.Headers, out.Compat = h, c
	return &out
}

// legacyModels are models gopi's own catalogue listed before it adopted
// omp's and that omp's does not have. They stay so that ids in existing
// settings and sessions keep resolving; each follows its provider's
// catalogue models. Prices are the providers' list prices of late 2025.
var legacyModels = [...]ai.Model{
	{ID: "claude-3-7-sonnet-latest", Name: "Claude Sonnet 3.7", API: ai.APIAnthropicMessages, Provider: "anthropic", BaseURL: "https://api.anthropic.com",
		Reasoning: true, Input: []string{ai.InputText, ai.InputImage}, Cost: ai.Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}, ContextWindow: 200000, MaxTokens: 64000},
	{ID: "claude-3-5-haiku-latest", Name: "Claude Haiku 3.5", API: ai.APIAnthropicMessages, Provider: "anthropic", BaseURL: "https://api.anthropic.com",
		Input: []string{ai.InputText, ai.InputImage}, Cost: ai.Prices{Input: 0.8, Output: 4, CacheRead: 0.08, CacheWrite: 1}, ContextWindow: 200000, MaxTokens: 8192},
	{ID: "deepseek-chat", Name: "DeepSeek V3.2 (chat)", API: ai.APIOpenAICompletions, Provider: "deepseek", BaseURL: "https://api.deepseek.com",
		Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.28, Output: 0.42, CacheRead: 0.028}, ContextWindow: 128000, MaxTokens: 8192},
	{ID: "deepseek-reasoner", Name: "DeepSeek V3.2 (reasoner)", API: ai.APIOpenAICompletions, Provider: "deepseek", BaseURL: "https://api.deepseek.com",
		Reasoning: true, Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.28, Output: 0.42, CacheRead: 0.028}, ContextWindow: 128000, MaxTokens: 65536},
	{ID: "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", Name: "Qwen3 Coder 480B (Together)", API: ai.APIOpenAICompletions, Provider: "together", BaseURL: "https://api.together.xyz/v1",
		Input: []string{ai.InputText}, Cost: ai.Prices{Input: 2, Output: 2}, ContextWindow: 262144, MaxTokens: 65536},
	{ID: "openai/gpt-oss-120b", Name: "GPT-OSS 120B (Together)", API: ai.APIOpenAICompletions, Provider: "together", BaseURL: "https://api.together.xyz/v1",
		Reasoning: true, Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.15, Output: 0.6}, ContextWindow: 131072, MaxTokens: 32768},
	{ID: "accounts/fireworks/models/kimi-k2-instruct-0905", Name: "Kimi K2 0905 (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.6, Output: 2.5}, ContextWindow: 262144, MaxTokens: 32768},
	{ID: "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct", Name: "Qwen3 Coder 480B (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.45, Output: 1.8}, ContextWindow: 262144, MaxTokens: 65536},
	{ID: "accounts/fireworks/models/glm-4p6", Name: "GLM 4.6 (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Reasoning: true, Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.55, Output: 2.19}, ContextWindow: 202752, MaxTokens: 65536},
	{ID: "accounts/fireworks/models/gpt-oss-120b", Name: "GPT-OSS 120B (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Reasoning: true, Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.15, Output: 0.6}, ContextWindow: 131072, MaxTokens: 32768},
	{ID: "llama-3.3-70b", Name: "Llama 3.3 70B (Cerebras)", API: ai.APIOpenAICompletions, Provider: "cerebras", BaseURL: "https://api.cerebras.ai/v1",
		Input: []string{ai.InputText}, Cost: ai.Prices{Input: 0.85, Output: 1.2}, ContextWindow: 131072, MaxTokens: 32768},
}

// legacyModelsOf appends pointers to a provider's legacy models to dst.
func legacyModelsOf(dst []*ai.Model, provider string) []*ai.Model {
	for i := range legacyModels {
		if legacyModels[i].Provider == provider {
			dst = append(dst, &legacyModels[i])
		}
	}
	return dst
}
