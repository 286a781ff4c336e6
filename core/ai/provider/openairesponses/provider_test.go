package openairesponses

import (
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: "gpt-test", Name: "GPT Test", API: ai.APIOpenAIResponses, Provider: "openai",
		BaseURL: base + "/v1", Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		Cost:          ai.Prices{Input: 1, Output: 4, CacheRead: 0.25},
		ContextWindow: 400000, MaxTokens: 128000,
	}
}

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider:        New(nil),
		Model:           testModel,
		PriorToolCallID: "call_prev_1|fc_prev_1",
		Extra:           []llmtest.Scenario{llmtest.ResponsesContentFilter},
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Path != "/v1/responses" {
				t.Errorf("path = %s", r.Path)
			}
			if r.Header.Get("X-Client-Request-Id") != "req_test_1" {
				t.Errorf("request id header = %q", r.Header.Get("X-Client-Request-Id"))
			}
		},
	})
}

func TestContextOverflow(t *testing.T) {
	llmtest.RunOverflow(t, llmtest.Config{Provider: New(nil), Model: testModel}, 400, llmtest.ResponsesOverflow)
}

func BenchmarkStream(b *testing.B) { llmtest.Bench(b, New(nil), testModel) }
