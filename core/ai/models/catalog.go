package models

import "github.com/gopi-agent/gopi/core/ai"

//go:generate go run ./internal/catalogen -in internal/catalogen/pi-ai-models.json.gz -out catalog_data.go

// The built-in catalogue is omp's: every provider and model that
// @oh-my-pi/pi-ai publishes in its models.json, turned into static Go data
// by internal/catalogen (catalog_data.go; scripts/update-catalog.sh fetches
// a release and regenerates it).
//
// The data holds no pointers: the models' strings are one constant
// (catalogText) and each model is a fixed-size catalogEntry referring to it
// by offset. So the catalogue costs nothing at start-up (no init code,
// nothing to parse) and nothing at each garbage collection (pointer-free
// data is not scanned; 2,574 ai.Model values would add some 26,000 pointers
// to every cycle). A registry builds an ai.Model from an entry only when
// one is asked for: a lookup reads ids and names straight from the entry.

// Input kinds shared by built models (never modify them).
var (
	inText      = []string{ai.InputText}
	inTextImage = []string{ai.InputText, ai.InputImage}
)

// textRef is a string of catalogText: offset and length.
type textRef struct {
	off uint32
	n   uint16
}

// String returns the referenced text (no copy: a slice of the constant).
func (t textRef) String() string { return catalogText[t.off : t.off+uint32(t.n)] }

// Flags of a catalogEntry.
const (
	entryReasoning = 1 << iota // supports thinking
	entryImage                 // accepts images
	entryMaps                  // has headers or compat settings (catalogMaps)
)

// catalogEntry is one model of the generated catalogue.
type catalogEntry struct {
	id, name, api, baseURL, promotion textRef
	provider                          uint8 // index in catalogProviders
	flags                             uint8
	thinking                          uint8 // 1-based index in catalogThinking, 0 for none
	ctx, max                          uint32
	cost                              [4]float64 // $ per million tokens: input, output, cache read, cache write
}

// catalogProvider is one provider of the generated catalogue: the API and
// base URL most of its models use, and its range in catalogEntries.
type catalogProvider struct {
	name, api, baseURL string
	first, count       int
}

// catalogModel builds the ai.Model of catalogEntries[i], with its headers
// and compat settings.
func catalogModel(i int) *ai.Model {
	e := &catalogEntries[i]
	m := &ai.Model{
		ID: e.id.String(), Name: e.name.String(), API: ai.API(e.api.String()),
		Provider: catalogProviders[e.provider].name, BaseURL: e.baseURL.String(),
		Reasoning: e.flags&entryReasoning != 0, Input: inText,
		Cost:          ai.Prices{Input: e.cost[0], Output: e.cost[1], CacheRead: e.cost[2], CacheWrite: e.cost[3]},
		ContextWindow: int(e.ctx), MaxTokens: int(e.max), ContextPromotionTarget: e.promotion.String(),
	}
	if e.flags&entryImage != 0 {
		m.Input = inTextImage
	}
	if e.thinking > 0 {
		spec := catalogThinking[e.thinking-1] // a copy: the model may be changed
		m.Thinking = &spec
	}
	if e.flags&entryMaps != 0 {
		m.Headers, m.Compat = catalogMaps(m.Provider + "/" + m.ID)
	}
	return m
}

// catalogSlots appends the slots of a provider's catalogue models to dst:
// its default model (omp's, when the catalogue has it) first, so that "the
// first model with credentials" is the provider's default, then the others
// in the catalogue's order.
func catalogSlots(dst []slot, p *catalogProvider, defaultID string) []slot {
	def := -1
	for i := p.first; i < p.first+p.count; i++ {
		if catalogEntries[i].id.String() == defaultID {
			def = i
			dst = append(dst, slot{cat: int32(i)})
		}
	}
	for i := p.first; i < p.first+p.count; i++ {
		if i != def {
			dst = append(dst, slot{cat: int32(i)})
		}
	}
	return dst
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

// legacySlots appends a provider's legacy models to dst, each a copy the
// registry owns.
func legacySlots(dst []slot, provider string) []slot {
	for i := range legacyModels {
		if legacyModels[i].Provider == provider {
			m := legacyModels[i]
			dst = append(dst, slot{m: &m})
		}
	}
	return dst
}
