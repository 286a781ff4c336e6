package models

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// ClampThinking maps a requested thinking level to one the model supports:
//
//   - models without reasoning: off;
//   - models whose catalogue entry says which levels they accept
//     (Model.Thinking): the level itself when accepted, else the strongest
//     accepted level below it, else the weakest accepted one (omp's rule);
//   - xhigh: kept for OpenAI GPT-5.1 Codex Max-class models (ids containing
//     "codex-max") and budget-based APIs (Anthropic, Gemini: the largest
//     budget); lowered to high elsewhere;
//   - minimal: kept for OpenAI GPT-5 models (reasoning_effort "minimal");
//     raised to low for other effort-based APIs (OpenAI o-series, OpenAI-
//     compatible servers), kept as the smallest budget for budget-based APIs.
//
// The provider then renders the level on the wire: a budget_tokens /
// thinkingBudget from ai.ThinkingBudgets, or a reasoning effort string.
func ClampThinking(m *ai.Model, level ai.ThinkingLevel) ai.ThinkingLevel {
	if level == "" {
		level = ai.ThinkingOff
	}
	if m == nil || !m.Reasoning || level == ai.ThinkingOff {
		return ai.ThinkingOff
	}
	if m.Thinking != nil && len(m.Thinking.Supported()) > 0 {
		return m.Thinking.Clamp(level)
	}
	budgetBased := m.API == ai.APIAnthropicMessages || m.API == ai.APIGoogleGenerativeAI
	switch level {
	case ai.ThinkingXHigh:
		if budgetBased || strings.Contains(m.ID, "codex-max") {
			return level
		}
		return ai.ThinkingHigh
	case ai.ThinkingMinimal:
		if budgetBased || strings.Contains(m.ID, "gpt-5") {
			return level
		}
		return ai.ThinkingLow
	}
	return level
}
