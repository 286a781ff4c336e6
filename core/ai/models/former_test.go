package models

import "testing"

// formerIDs are the models of gopi's own catalogue before it adopted omp's
// (commit 4bafa6b): settings and sessions name them, so each must still
// resolve to itself.
var formerIDs = []string{
	"anthropic/claude-opus-4-5",
	"anthropic/claude-sonnet-4-5",
	"anthropic/claude-haiku-4-5",
	"anthropic/claude-opus-4-1",
	"anthropic/claude-sonnet-4-0",
	"anthropic/claude-3-7-sonnet-latest",
	"anthropic/claude-3-5-haiku-latest",
	"openai/gpt-5.1",
	"openai/gpt-5.1-codex",
	"openai/gpt-5.1-codex-mini",
	"openai/gpt-5",
	"openai/gpt-5-codex",
	"openai/gpt-5-mini",
	"openai/gpt-5-nano",
	"openai/o3",
	"openai/o4-mini",
	"openai/gpt-4.1",
	"openai/gpt-4.1-mini",
	"openai/gpt-4o",
	"openai/gpt-4o-mini",
	"google/gemini-3-pro-preview",
	"google/gemini-2.5-pro",
	"google/gemini-2.5-flash",
	"google/gemini-2.5-flash-lite",
	"google/gemini-2.0-flash",
	"xai/grok-4",
	"xai/grok-4-fast",
	"xai/grok-code-fast-1",
	"xai/grok-3-mini",
	"groq/openai/gpt-oss-120b",
	"groq/moonshotai/kimi-k2-instruct-0905",
	"groq/qwen/qwen3-32b",
	"groq/llama-3.3-70b-versatile",
	"deepseek/deepseek-chat",
	"deepseek/deepseek-reasoner",
	"mistral/mistral-large-latest",
	"mistral/mistral-medium-latest",
	"mistral/devstral-medium-latest",
	"mistral/codestral-latest",
	"openrouter/anthropic/claude-sonnet-4.5",
	"openrouter/openai/gpt-5",
	"openrouter/google/gemini-2.5-pro",
	"openrouter/x-ai/grok-code-fast-1",
	"openrouter/qwen/qwen3-coder",
	"openrouter/z-ai/glm-4.6",
	"together/moonshotai/Kimi-K2-Instruct-0905",
	"together/Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8",
	"together/deepseek-ai/DeepSeek-V3.1",
	"together/openai/gpt-oss-120b",
	"fireworks/accounts/fireworks/models/kimi-k2-instruct-0905",
	"fireworks/accounts/fireworks/models/qwen3-coder-480b-a35b-instruct",
	"fireworks/accounts/fireworks/models/glm-4p6",
	"fireworks/accounts/fireworks/models/gpt-oss-120b",
	"cerebras/gpt-oss-120b",
	"cerebras/qwen-3-coder-480b",
	"cerebras/zai-glm-4.6",
	"cerebras/llama-3.3-70b",
}

func TestFormerIDsResolve(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range formerIDs {
		m, err := r.Find(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if got := m.Provider + "/" + m.ID; got != id {
			t.Errorf("%s resolves to %s", id, got)
		}
	}
}
