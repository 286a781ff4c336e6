package anthropic

import (
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5", API: ai.APIAnthropicMessages, Provider: "anthropic",
		BaseURL: base, Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		Cost:          ai.Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		ContextWindow: 200000, MaxTokens: 64000,
	}
}

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider: New(nil),
		Model: func(base string) *ai.Model {
			m := testModel(base)
			m.Headers = map[string]string{"X-Model-Header": "m"}
			return m
		},
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Path != "/v1/messages" {
				t.Errorf("path %q, want /v1/messages", r.Path)
			}
			if got := r.Header.Get("anthropic-version"); got != APIVersion {
				t.Errorf("anthropic-version %q", got)
			}
			if got := r.Header.Get("X-Model-Header"); got != "m" {
				t.Errorf("model header not sent: %q", got)
			}
		},
	})
}

func BenchmarkStream(b *testing.B) { llmtest.Bench(b, New(nil), testModel) }
