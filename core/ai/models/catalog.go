package models

import (
	"sort"

	"github.com/gopi-agent/gopi/core/ai"
)

//go:generate go run ./internal/catalogen -in internal/catalogen/pi-ai-models.json.gz -out catalog_data.go

// The built-in catalogue is omp's: every provider and model that
// @oh-my-pi/pi-ai publishes in its models.json, turned into static Go data
// by internal/catalogen (catalog_data.go; scripts/update-catalog.sh fetches
// a release and regenerates it). The models are ai.Model values in a fixed
// array, so loading the catalogue costs one pointer per model and the
// binary's data pages are only touched when a model is looked at. The
// registry hands out pointers into that array: a model from the registry is
// shared and read-only, and the registry copies one before changing it.

// Input kinds shared by the catalogue's models (static data: never modify).
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
// to dst, in the catalogue's order, with a private copy for each model that
// has headers or compat settings (those maps are built per registry).
func catalogModelsOf(dst []*ai.Model, p *catalogProvider) []*ai.Model {
	end := p.first + p.count
	// catalogWithMaps is ascending: find the first entry in range.
	k := sort.Search(len(catalogWithMaps), func(j int) bool { return int(catalogWithMaps[j]) >= p.first })
	for i := p.first; i < end; i++ {
		m := &catalogModels[i]
		if k < len(catalogWithMaps) && int(catalogWithMaps[k]) == i {
			c := *m
			c.Headers, c.Compat = catalogMaps(i)
			m = &c
			k++
		}
		dst = append(dst, m)
	}
	return dst
}

// legacyModels are models gopi's own catalogue listed before it adopted
// omp's and that omp's does not have. They stay so that ids in existing
// settings and sessions keep resolving; each follows its provider's
// catalogue models. Prices are the providers' list prices of late 2025.
var legacyModels = [...]ai.Model{
	{ID: "claude-3-7-sonnet-latest", Name: "Claude Sonnet 3.7", API: ai.APIAnthropicMessages, Provider: "anthropic", BaseURL: "https://api.anthropic.com",
		Reasoning: true, Input: inTextImage, Cost: ai.Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}, ContextWindow: 200000, MaxTokens: 64000},
	{ID: "claude-3-5-haiku-latest", Name: "Claude Haiku 3.5", API: ai.APIAnthropicMessages, Provider: "anthropic", BaseURL: "https://api.anthropic.com",
		Input: inTextImage, Cost: ai.Prices{Input: 0.8, Output: 4, CacheRead: 0.08, CacheWrite: 1}, ContextWindow: 200000, MaxTokens: 8192},
	{ID: "deepseek-chat", Name: "DeepSeek V3.2 (chat)", API: ai.APIOpenAICompletions, Provider: "deepseek", BaseURL: "https://api.deepseek.com",
		Input: inText, Cost: ai.Prices{Input: 0.28, Output: 0.42, CacheRead: 0.028}, ContextWindow: 128000, MaxTokens: 8192},
	{ID: "deepseek-reasoner", Name: "DeepSeek V3.2 (reasoner)", API: ai.APIOpenAICompletions, Provider: "deepseek", BaseURL: "https://api.deepseek.com",
		Reasoning: true, Input: inText, Cost: ai.Prices{Input: 0.28, Output: 0.42, CacheRead: 0.028}, ContextWindow: 128000, MaxTokens: 65536},
	{ID: "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", Name: "Qwen3 Coder 480B (Together)", API: ai.APIOpenAICompletions, Provider: "together", BaseURL: "https://api.together.xyz/v1",
		Input: inText, Cost: ai.Prices{Input: 2, Output: 2}, ContextWindow: 262144, MaxTokens: 65536},
	{ID: "openai/gpt-oss-120b", Name: "GPT-OSS 120B (Together)", API: ai.APIOpenAICompletions, Provider: "together", BaseURL: "https://api.together.xyz/v1",
		Reasoning: true, Input: inText, Cost: ai.Prices{Input: 0.15, Output: 0.6}, ContextWindow: 131072, MaxTokens: 32768},
	{ID: "accounts/fireworks/models/kimi-k2-instruct-0905", Name: "Kimi K2 0905 (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Input: inText, Cost: ai.Prices{Input: 0.6, Output: 2.5}, ContextWindow: 262144, MaxTokens: 32768},
	{ID: "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct", Name: "Qwen3 Coder 480B (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Input: inText, Cost: ai.Prices{Input: 0.45, Output: 1.8}, ContextWindow: 262144, MaxTokens: 65536},
	{ID: "accounts/fireworks/models/glm-4p6", Name: "GLM 4.6 (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Reasoning: true, Input: inText, Cost: ai.Prices{Input: 0.55, Output: 2.19}, ContextWindow: 202752, MaxTokens: 65536},
	{ID: "accounts/fireworks/models/gpt-oss-120b", Name: "GPT-OSS 120B (Fireworks)", API: ai.APIOpenAICompletions, Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		Reasoning: true, Input: inText, Cost: ai.Prices{Input: 0.15, Output: 0.6}, ContextWindow: 131072, MaxTokens: 32768},
	{ID: "llama-3.3-70b", Name: "Llama 3.3 70B (Cerebras)", API: ai.APIOpenAICompletions, Provider: "cerebras", BaseURL: "https://api.cerebras.ai/v1",
		Input: inText, Cost: ai.Prices{Input: 0.85, Output: 1.2}, ContextWindow: 131072, MaxTokens: 32768},
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
