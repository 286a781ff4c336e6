package openaicompletions

import "strings"

// Preset is a known OpenAI-compatible service: where it listens, which
// environment variable holds its key, and its quirks. The model registry
// (core/ai/models) uses the table to build providers and resolve keys.
type Preset struct {
	Name        string   // provider name used in model ids ("ollama/llama3.2")
	Title       string   // human-facing name
	BaseURL     string   // default API root, including the /v1-style prefix
	BaseURLEnv  string   // environment variable overriding BaseURL ("" if none)
	KeyEnv      []string // environment variables holding the key, first set wins
	KeyOptional bool     // a local server that usually runs without auth
	Compat      Compat   // server quirks
}

// Presets lists the built-in OpenAI-compatible services. Key variables and
// local default URLs follow the environment-variable reference; the local
// servers' discovery variables (OLLAMA_BASE_URL, LM_STUDIO_BASE_URL,
// LLAMA_CPP_BASE_URL) override the base URL, with the OpenAI-compatible
// "/v1" prefix added when missing.
var Presets = []Preset{
	{Name: "ollama", Title: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", BaseURLEnv: "OLLAMA_BASE_URL",
		KeyEnv: []string{"OLLAMA_API_KEY"}, KeyOptional: true,
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true, SupportsReasoningEffort: true}},
	{Name: "lm-studio", Title: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1", BaseURLEnv: "LM_STUDIO_BASE_URL",
		KeyEnv: []string{"LM_STUDIO_API_KEY"}, KeyOptional: true,
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true}},
	{Name: "llama.cpp", Title: "llama.cpp", BaseURL: "http://127.0.0.1:8080/v1", BaseURLEnv: "LLAMA_CPP_BASE_URL",
		KeyEnv: []string{"LLAMA_CPP_API_KEY"}, KeyOptional: true,
		// llama-server takes content "" as well as null; llama-cpp-python only "".
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true, EmptyContentWithToolCalls: true}},
	{Name: "vllm", Title: "vLLM", BaseURL: "http://127.0.0.1:8000/v1",
		KeyEnv: []string{"VLLM_API_KEY"}, KeyOptional: true,
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true, SupportsReasoningEffort: true}},
	{Name: "openrouter", Title: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1",
		KeyEnv: []string{"OPENROUTER_API_KEY"},
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true, ReasoningObject: true}},
	{Name: "groq", Title: "Groq", BaseURL: "https://api.groq.com/openai/v1",
		KeyEnv: []string{"GROQ_API_KEY"},
		Compat: Compat{MaxTokensField: "max_completion_tokens", SupportsUsageInStreaming: true, SupportsReasoningEffort: true}},
	{Name: "xai", Title: "xAI", BaseURL: "https://api.x.ai/v1",
		KeyEnv: []string{"XAI_API_KEY"},
		Compat: Compat{MaxTokensField: "max_completion_tokens", SupportsUsageInStreaming: true, SupportsReasoningEffort: true}},
	{Name: "deepseek", Title: "DeepSeek", BaseURL: "https://api.deepseek.com/v1",
		KeyEnv: []string{"DEEPSEEK_API_KEY"},
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true}},
	{Name: "mistral", Title: "Mistral", BaseURL: "https://api.mistral.ai/v1",
		KeyEnv: []string{"MISTRAL_API_KEY"},
		Compat: Compat{MaxTokensField: "max_tokens", ToolCallIDFormat: "mistral"}},
	{Name: "together", Title: "Together AI", BaseURL: "https://api.together.xyz/v1",
		KeyEnv: []string{"TOGETHER_API_KEY"},
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true}},
	{Name: "fireworks", Title: "Fireworks", BaseURL: "https://api.fireworks.ai/inference/v1",
		KeyEnv: []string{"FIREWORKS_API_KEY"},
		Compat: Compat{MaxTokensField: "max_tokens", SupportsUsageInStreaming: true, SupportsReasoningEffort: true}},
	{Name: "cerebras", Title: "Cerebras", BaseURL: "https://api.cerebras.ai/v1",
		KeyEnv: []string{"CEREBRAS_API_KEY"},
		// Cerebras rejects stream_options; its usage is estimated.
		Compat: Compat{MaxTokensField: "max_completion_tokens", SupportsReasoningEffort: true}},
}

// PresetByName finds a preset by provider name.
func PresetByName(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// ResolvedBaseURL returns the preset's base URL after its environment
// override, looked up with getenv (core/config's Env.Get; nil looks up
// nothing). A local server's discovery URL names the server root, so "/v1"
// is appended when it has no path.
func (p Preset) ResolvedBaseURL(getenv func(string) string) string {
	if p.BaseURLEnv == "" || getenv == nil {
		return p.BaseURL
	}
	v := strings.TrimRight(strings.TrimSpace(getenv(p.BaseURLEnv)), "/")
	if v == "" {
		return p.BaseURL
	}
	if rest, ok := strings.CutPrefix(v, "http://"); ok && !strings.Contains(rest, "/") {
		return v + "/v1"
	}
	if rest, ok := strings.CutPrefix(v, "https://"); ok && !strings.Contains(rest, "/") {
		return v + "/v1"
	}
	return v
}

// APIKey returns the first set key variable, looked up with getenv
// (core/config's Env.Get; nil looks up nothing), or "" when none is set.
func (p Preset) APIKey(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	for _, k := range p.KeyEnv {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v
		}
	}
	return ""
}
