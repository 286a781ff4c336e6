package models

import "github.com/gopi-agent/gopi/core/ai"

// Shorthands for the catalog table.
var (
	textOnly  = []string{ai.InputText}
	textImage = []string{ai.InputText, ai.InputImage}
)

// entry is one catalog row; provider, API and base URL come from the
// provider table.
type entry struct {
	provider  string
	id, name  string
	reasoning bool
	input     []string
	ctx, max  int
	in, out   float64 // $ per million input / output tokens
	cr, cw    float64 // $ per million cache-read / cache-write tokens
}

// catalog lists current models per provider, newest and most capable
// first within a provider (fuzzy lookup prefers earlier rows). Prices are
// the providers' published list prices in US dollars per million tokens as
// of late 2025; they only feed cost estimates.
var catalog = []entry{
	// Anthropic
	{"anthropic", "claude-opus-4-5", "Claude Opus 4.5", true, textImage, 200000, 64000, 5, 25, 0.5, 6.25},
	{"anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5", true, textImage, 200000, 64000, 3, 15, 0.3, 3.75},
	{"anthropic", "claude-haiku-4-5", "Claude Haiku 4.5", true, textImage, 200000, 64000, 1, 5, 0.1, 1.25},
	{"anthropic", "claude-opus-4-1", "Claude Opus 4.1", true, textImage, 200000, 32000, 15, 75, 1.5, 18.75},
	{"anthropic", "claude-sonnet-4-0", "Claude Sonnet 4", true, textImage, 200000, 64000, 3, 15, 0.3, 3.75},
	{"anthropic", "claude-3-7-sonnet-latest", "Claude Sonnet 3.7", true, textImage, 200000, 64000, 3, 15, 0.3, 3.75},
	{"anthropic", "claude-3-5-haiku-latest", "Claude Haiku 3.5", false, textImage, 200000, 8192, 0.8, 4, 0.08, 1},

	// OpenAI (Responses API)
	{"openai", "gpt-5.1", "GPT-5.1", true, textImage, 400000, 128000, 1.25, 10, 0.125, 0},
	{"openai", "gpt-5.1-codex", "GPT-5.1 Codex", true, textImage, 400000, 128000, 1.25, 10, 0.125, 0},
	{"openai", "gpt-5.1-codex-mini", "GPT-5.1 Codex mini", true, textImage, 400000, 128000, 0.25, 2, 0.025, 0},
	{"openai", "gpt-5", "GPT-5", true, textImage, 400000, 128000, 1.25, 10, 0.125, 0},
	{"openai", "gpt-5-codex", "GPT-5 Codex", true, textImage, 400000, 128000, 1.25, 10, 0.125, 0},
	{"openai", "gpt-5-mini", "GPT-5 mini", true, textImage, 400000, 128000, 0.25, 2, 0.025, 0},
	{"openai", "gpt-5-nano", "GPT-5 nano", true, textImage, 400000, 128000, 0.05, 0.4, 0.005, 0},
	{"openai", "o3", "o3", true, textImage, 200000, 100000, 2, 8, 0.5, 0},
	{"openai", "o4-mini", "o4-mini", true, textImage, 200000, 100000, 1.1, 4.4, 0.275, 0},
	{"openai", "gpt-4.1", "GPT-4.1", false, textImage, 1047576, 32768, 2, 8, 0.5, 0},
	{"openai", "gpt-4.1-mini", "GPT-4.1 mini", false, textImage, 1047576, 32768, 0.4, 1.6, 0.1, 0},
	{"openai", "gpt-4o", "GPT-4o", false, textImage, 128000, 16384, 2.5, 10, 1.25, 0},
	{"openai", "gpt-4o-mini", "GPT-4o mini", false, textImage, 128000, 16384, 0.15, 0.6, 0.075, 0},

	// Google Gemini
	{"google", "gemini-3-pro-preview", "Gemini 3 Pro Preview", true, textImage, 1048576, 65536, 2, 12, 0.2, 0},
	{"google", "gemini-2.5-pro", "Gemini 2.5 Pro", true, textImage, 1048576, 65536, 1.25, 10, 0.31, 0},
	{"google", "gemini-2.5-flash", "Gemini 2.5 Flash", true, textImage, 1048576, 65536, 0.3, 2.5, 0.075, 0},
	{"google", "gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", true, textImage, 1048576, 65536, 0.1, 0.4, 0.025, 0},
	{"google", "gemini-2.0-flash", "Gemini 2.0 Flash", false, textImage, 1048576, 8192, 0.1, 0.4, 0.025, 0},

	// xAI
	{"xai", "grok-4", "Grok 4", true, textImage, 256000, 64000, 3, 15, 0.75, 0},
	{"xai", "grok-4-fast", "Grok 4 Fast", true, textImage, 2000000, 30000, 0.2, 0.5, 0.05, 0},
	{"xai", "grok-code-fast-1", "Grok Code Fast 1", true, textOnly, 256000, 10000, 0.2, 1.5, 0.02, 0},
	{"xai", "grok-3-mini", "Grok 3 Mini", true, textOnly, 131072, 8192, 0.3, 0.5, 0.075, 0},

	// Groq
	{"groq", "openai/gpt-oss-120b", "GPT-OSS 120B (Groq)", true, textOnly, 131072, 65536, 0.15, 0.75, 0, 0},
	{"groq", "moonshotai/kimi-k2-instruct-0905", "Kimi K2 0905 (Groq)", false, textOnly, 262144, 16384, 1, 3, 0, 0},
	{"groq", "qwen/qwen3-32b", "Qwen3 32B (Groq)", true, textOnly, 131072, 40960, 0.29, 0.59, 0, 0},
	{"groq", "llama-3.3-70b-versatile", "Llama 3.3 70B (Groq)", false, textOnly, 131072, 32768, 0.59, 0.79, 0, 0},

	// DeepSeek
	{"deepseek", "deepseek-chat", "DeepSeek V3.2 (chat)", false, textOnly, 128000, 8192, 0.28, 0.42, 0.028, 0},
	{"deepseek", "deepseek-reasoner", "DeepSeek V3.2 (reasoner)", true, textOnly, 128000, 65536, 0.28, 0.42, 0.028, 0},

	// Mistral
	{"mistral", "mistral-large-latest", "Mistral Large", false, textImage, 262144, 32768, 0.5, 1.5, 0, 0},
	{"mistral", "mistral-medium-latest", "Mistral Medium", false, textImage, 131072, 32768, 0.4, 2, 0, 0},
	{"mistral", "devstral-medium-latest", "Devstral Medium", false, textOnly, 131072, 32768, 0.4, 2, 0, 0},
	{"mistral", "codestral-latest", "Codestral", false, textOnly, 256000, 32768, 0.3, 0.9, 0, 0},

	// OpenRouter
	{"openrouter", "anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5 (OpenRouter)", true, textImage, 1000000, 64000, 3, 15, 0.3, 3.75},
	{"openrouter", "openai/gpt-5", "GPT-5 (OpenRouter)", true, textImage, 400000, 128000, 1.25, 10, 0.125, 0},
	{"openrouter", "google/gemini-2.5-pro", "Gemini 2.5 Pro (OpenRouter)", true, textImage, 1048576, 65536, 1.25, 10, 0.31, 0},
	{"openrouter", "x-ai/grok-code-fast-1", "Grok Code Fast 1 (OpenRouter)", true, textOnly, 256000, 10000, 0.2, 1.5, 0.02, 0},
	{"openrouter", "qwen/qwen3-coder", "Qwen3 Coder (OpenRouter)", false, textOnly, 262144, 65536, 0.22, 0.95, 0, 0},
	{"openrouter", "z-ai/glm-4.6", "GLM 4.6 (OpenRouter)", true, textOnly, 202752, 131072, 0.4, 1.75, 0, 0},

	// Together AI
	{"together", "moonshotai/Kimi-K2-Instruct-0905", "Kimi K2 0905 (Together)", false, textOnly, 262144, 32768, 1, 3, 0, 0},
	{"together", "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", "Qwen3 Coder 480B (Together)", false, textOnly, 262144, 65536, 2, 2, 0, 0},
	{"together", "deepseek-ai/DeepSeek-V3.1", "DeepSeek V3.1 (Together)", true, textOnly, 131072, 32768, 0.6, 1.7, 0, 0},
	{"together", "openai/gpt-oss-120b", "GPT-OSS 120B (Together)", true, textOnly, 131072, 32768, 0.15, 0.6, 0, 0},

	// Fireworks
	{"fireworks", "accounts/fireworks/models/kimi-k2-instruct-0905", "Kimi K2 0905 (Fireworks)", false, textOnly, 262144, 32768, 0.6, 2.5, 0, 0},
	{"fireworks", "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct", "Qwen3 Coder 480B (Fireworks)", false, textOnly, 262144, 65536, 0.45, 1.8, 0, 0},
	{"fireworks", "accounts/fireworks/models/glm-4p6", "GLM 4.6 (Fireworks)", true, textOnly, 202752, 65536, 0.55, 2.19, 0, 0},
	{"fireworks", "accounts/fireworks/models/gpt-oss-120b", "GPT-OSS 120B (Fireworks)", true, textOnly, 131072, 32768, 0.15, 0.6, 0, 0},

	// Cerebras
	{"cerebras", "gpt-oss-120b", "GPT-OSS 120B (Cerebras)", true, textOnly, 131072, 32768, 0.35, 0.75, 0, 0},
	{"cerebras", "qwen-3-coder-480b", "Qwen3 Coder 480B (Cerebras)", false, textOnly, 131072, 32768, 2, 2, 0, 0},
	{"cerebras", "zai-glm-4.6", "GLM 4.6 (Cerebras)", true, textOnly, 131072, 40960, 2.25, 2.75, 0, 0},
	{"cerebras", "llama-3.3-70b", "Llama 3.3 70B (Cerebras)", false, textOnly, 131072, 32768, 0.85, 1.2, 0, 0},
}

// Local servers (ollama, lm-studio, llama.cpp, vllm) have no built-in
// models: their models are whatever the user pulled, declared in
// models.yml under the preset's name.
