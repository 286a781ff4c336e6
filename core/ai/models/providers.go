package models

import (
	"strings"

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
	// DefaultModel is the model id chosen when only the provider is named
	// (omp's default for the provider); "" means its first model.
	DefaultModel string
	// Ambient lists the environment settings under which the provider's
	// own client finds credentials without a key (the AWS credential chain,
	// Google application default credentials): each entry is one variable
	// or several joined by "+", all of which must be set.
	Ambient []string

	order int // position in the registry (lookups prefer earlier providers)
}

// providerFacts are what omp's models.json does not say about its
// providers: titles, key and base-URL variables (spec
// environment-variables.md, pi-ai's key map) and default models (pi-ai's
// provider descriptors). The order is the registry's: the first-party
// APIs, gopi's long-standing OpenAI-compatible presets (local servers
// first, the OpenRouter aggregator last), then the rest of omp's providers
// by name. Lookups that tie
// prefer earlier providers.
var providerFacts = []ProviderInfo{
	{Name: "anthropic", Title: "Anthropic", KeyEnv: []string{"ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"}, DefaultModel: "claude-sonnet-4-6"},
	{Name: "openai", Title: "OpenAI", KeyEnv: []string{"OPENAI_API_KEY"}, DefaultModel: "gpt-5.4"},
	{Name: "google", Title: "Google Gemini", KeyEnv: []string{"GEMINI_API_KEY"}, DefaultModel: "gemini-2.5-pro"},
	// The OpenAI-compatible presets take the rest of their facts from
	// openaicompletions.Presets.
	{Name: "ollama", DefaultModel: "gpt-oss:20b"},
	{Name: "lm-studio"},
	{Name: "llama.cpp"},
	{Name: "vllm"},
	{Name: "groq", DefaultModel: "openai/gpt-oss-120b"},
	{Name: "xai", DefaultModel: "grok-4-fast-non-reasoning"},
	{Name: "deepseek", DefaultModel: "deepseek-v4-pro"},
	{Name: "mistral", DefaultModel: "devstral-medium-latest"},
	{Name: "together", DefaultModel: "moonshotai/Kimi-K2.5"},
	{Name: "fireworks", DefaultModel: "kimi-k2.6"},
	{Name: "cerebras", DefaultModel: "zai-glm-4.6"},
	{Name: "openrouter", DefaultModel: "openai/gpt-5.4"}, // an aggregator: after the vendors' own APIs

	{Name: "alibaba-coding-plan", Title: "Alibaba Coding Plan", KeyEnv: []string{"ALIBABA_CODING_PLAN_API_KEY"}, DefaultModel: "qwen3.5-plus"},
	// Amazon Bedrock's key is a Bedrock API key; without one it signs with
	// the AWS credential chain (bedrock.go: awsAuthSource).
	{Name: "amazon-bedrock", Title: "Amazon Bedrock", KeyEnv: []string{"AWS_BEARER_TOKEN_BEDROCK"}, DefaultModel: "us.anthropic.claude-opus-4-6-v1"},
	{Name: "cloudflare-ai-gateway", Title: "Cloudflare AI Gateway", KeyEnv: []string{"CLOUDFLARE_AI_GATEWAY_API_KEY"}, DefaultModel: "claude-sonnet-4-5"},
	{Name: "cursor", Title: "Cursor", KeyEnv: []string{"CURSOR_ACCESS_TOKEN"}, DefaultModel: "claude-sonnet-4-6"},
	{Name: "github-copilot", Title: "GitHub Copilot", KeyEnv: []string{"COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"}, DefaultModel: "gpt-4o"},
	{Name: "gitlab-duo", Title: "GitLab Duo", KeyEnv: []string{"GITLAB_TOKEN"}, DefaultModel: "duo-chat-sonnet-4-5"},
	{Name: "google-antigravity", Title: "Google Antigravity", DefaultModel: "gemini-3-pro-high"},
	{Name: "google-gemini-cli", Title: "Google Gemini CLI (Cloud Code Assist)", DefaultModel: "gemini-2.5-pro"},
	// Google Vertex AI without GOOGLE_CLOUD_API_KEY uses application default
	// credentials (vertex.go: ambientKey).
	{Name: "google-vertex", Title: "Google Vertex AI", KeyEnv: []string{"GOOGLE_CLOUD_API_KEY"}, DefaultModel: "gemini-3-pro-preview"},
	{Name: "huggingface", Title: "Hugging Face", KeyEnv: []string{"HUGGINGFACE_HUB_TOKEN", "HF_TOKEN"}, DefaultModel: "deepseek-ai/DeepSeek-R1"},
	{Name: "kilo", Title: "Kilo Gateway", KeyEnv: []string{"KILO_API_KEY"}, DefaultModel: "anthropic/claude-sonnet-4.5"},
	{Name: "kimi-code", Title: "Kimi Code", DefaultModel: "kimi-k2.5"},
	{Name: "litellm", Title: "LiteLLM", KeyEnv: []string{"LITELLM_API_KEY"}, DefaultModel: "claude-opus-4-6"},
	{Name: "minimax", Title: "MiniMax", KeyEnv: []string{"MINIMAX_API_KEY"}, DefaultModel: "MiniMax-M2.5"},
	{Name: "minimax-cn", Title: "MiniMax (China)"},
	{Name: "minimax-code", Title: "MiniMax Coding Plan", KeyEnv: []string{"MINIMAX_CODE_API_KEY"}, DefaultModel: "MiniMax-M2.5"},
	{Name: "minimax-code-cn", Title: "MiniMax Coding Plan (China)", KeyEnv: []string{"MINIMAX_CODE_CN_API_KEY"}, DefaultModel: "MiniMax-M2.5"},
	{Name: "moonshot", Title: "Moonshot (Kimi API)", KeyEnv: []string{"MOONSHOT_API_KEY"}, DefaultModel: "kimi-k2.5"},
	{Name: "nanogpt", Title: "NanoGPT", KeyEnv: []string{"NANO_GPT_API_KEY"}, DefaultModel: "openai/gpt-5.4"},
	{Name: "nvidia", Title: "NVIDIA", KeyEnv: []string{"NVIDIA_API_KEY"}, DefaultModel: "nvidia/llama-3.1-nemotron-70b-instruct"},
	{Name: "ollama-cloud", Title: "Ollama Cloud", KeyEnv: []string{"OLLAMA_CLOUD_API_KEY"}, DefaultModel: "gpt-oss:120b"},
	{Name: "openai-codex", Title: "OpenAI Codex (ChatGPT subscription)", KeyEnv: []string{"OPENAI_CODEX_OAUTH_TOKEN"}, DefaultModel: "gpt-5.4"},
	{Name: "opencode", Title: "OpenCode"},
	{Name: "opencode-go", Title: "OpenCode Go", KeyEnv: []string{"OPENCODE_API_KEY"}, DefaultModel: "kimi-k2.5"},
	{Name: "opencode-zen", Title: "OpenCode Zen", KeyEnv: []string{"OPENCODE_API_KEY"}, DefaultModel: "claude-sonnet-4-6"},
	{Name: "qianfan", Title: "Baidu Qianfan", KeyEnv: []string{"QIANFAN_API_KEY"}, DefaultModel: "deepseek-v3.2"},
	{Name: "qwen-portal", Title: "Qwen Portal", KeyEnv: []string{"QWEN_OAUTH_TOKEN", "QWEN_PORTAL_API_KEY"}, DefaultModel: "coder-model"},
	{Name: "synthetic", Title: "Synthetic", KeyEnv: []string{"SYNTHETIC_API_KEY"}, DefaultModel: "hf:moonshotai/Kimi-K2.5"},
	{Name: "venice", Title: "Venice", KeyEnv: []string{"VENICE_API_KEY"}, DefaultModel: "llama-3.3-70b"},
	{Name: "vercel-ai-gateway", Title: "Vercel AI Gateway", KeyEnv: []string{"AI_GATEWAY_API_KEY"}, DefaultModel: "anthropic/claude-sonnet-4-6"},
	{Name: "xiaomi", Title: "Xiaomi MiMo", KeyEnv: []string{"XIAOMI_API_KEY"}, DefaultModel: "mimo-v2-flash"},
	{Name: "zai", Title: "Z.AI", KeyEnv: []string{"ZAI_API_KEY"}, DefaultModel: "glm-5.1"},
	{Name: "zenmux", Title: "ZenMux", KeyEnv: []string{"ZENMUX_API_KEY"}, DefaultModel: "anthropic/claude-opus-4.6"},
}

// builtinProviders returns fresh copies of the built-in providers (a
// registry changes its own from models.yml) and the catalogue's models in
// registry order.
func builtinProviders() ([]*ProviderInfo, []slot) {
	out := make([]*ProviderInfo, 0, len(providerFacts))
	models := make([]slot, 0, len(catalogEntries)+len(legacyModels))
	for _, f := range providerFacts {
		p := f
		p.KeyEnv = append([]string(nil), f.KeyEnv...)
		if preset, ok := openaicompletions.PresetByName(p.Name); ok {
			p.Title, p.API, p.BaseURL, p.BaseURLEnv = preset.Title, ai.APIOpenAICompletions, preset.BaseURL, preset.BaseURLEnv
			p.KeyEnv, p.KeyOptional = append([]string(nil), preset.KeyEnv...), preset.KeyOptional
		}
		if i := catalogProviderIndex(p.Name); i >= 0 {
			c := &catalogProviders[i]
			p.API, p.BaseURL = ai.API(c.api), strings.TrimRight(c.baseURL, "/")
			models = catalogSlots(models, c, p.DefaultModel)
		}
		models = legacySlots(models, p.Name)
		out = append(out, &p)
	}
	return out, models
}

// ambientSource returns the first Ambient entry whose variables are all
// set, as "env A+B", or "".
func ambientSource(p *ProviderInfo, getenv func(string) string) string {
	for _, alt := range p.Ambient {
		ok := true
		for _, name := range strings.Split(alt, "+") {
			if strings.TrimSpace(getenv(name)) == "" {
				ok = false
				break
			}
		}
		if ok {
			return "env " + alt
		}
	}
	return ""
}
