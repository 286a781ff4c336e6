package ai

import (
	"regexp"
	"sync"
)

// overflowPatterns match the error texts providers use when the prompt does
// not fit the model's context window. They are compiled on first use, not
// at start-up: most gopi commands never look at a provider error.
var overflowPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)prompt is too long`),                                 // Anthropic
		regexp.MustCompile(`(?i)exceeds the context window`),                         // OpenAI Responses
		regexp.MustCompile(`(?i)maximum context length`),                             // OpenAI Chat Completions, vLLM, DeepSeek
		regexp.MustCompile(`(?i)context_length_exceeded`),                            // OpenAI error code
		regexp.MustCompile(`(?i)input token count.*exceeds the maximum`),             // Google Gemini
		regexp.MustCompile(`(?i)exceeds the limit of \d+`),                           // GitHub Copilot
		regexp.MustCompile(`(?i)reduce the length of the messages`),                  // Groq
		regexp.MustCompile(`(?i)context (?:length|window) (?:exceeded|is exceeded)`), // llama.cpp, LM Studio
		regexp.MustCompile(`(?i)exceeds? (?:the )?(?:available )?context size`),      // llama.cpp
		regexp.MustCompile(`(?i)greater than the context length`),                    // LM Studio
		regexp.MustCompile(`(?i)too many tokens`),                                    // Mistral and others
		regexp.MustCompile(`(?i)token limit exceeded`),                               // Together, Fireworks
		regexp.MustCompile(`(?i)input is too long`),                                  // Bedrock
		regexp.MustCompile(`(?i)model_context_window_exceeded`),                      // Anthropic stop reason surfaced as error
		regexp.MustCompile(`(?i)^HTTP 413\b`),                                        // request entity too large
	}
})

// rateLimitPattern excludes rate-limit texts that mention tokens (a 429 is
// never an overflow).
var rateLimitPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^HTTP 429\b|rate limit|tokens per minute|TPM`)
})

// IsContextOverflow reports whether an assistant message failed because the
// context was too large: its error text matches a provider's overflow
// message, or (for servers that truncate silently) a successful response
// reports more input tokens than contextWindow. contextWindow 0 skips the
// second check, as does a usage gopi estimated (Usage.Estimated): the
// server said nothing, and a count made with another tokenizer is no sign
// that it cut anything.
func IsContextOverflow(m *AssistantMessage, contextWindow int) bool {
	if m == nil {
		return false
	}
	if m.StopReason == StopReasonError {
		if rateLimitPattern().MatchString(m.ErrorMessage) {
			return false
		}
		for _, p := range overflowPatterns() {
			if p.MatchString(m.ErrorMessage) {
				return true
			}
		}
		return false
	}
	if contextWindow > 0 && m.StopReason == StopReasonStop && !m.Usage.Estimated {
		return m.Usage.Input+m.Usage.CacheRead > contextWindow
	}
	return false
}
