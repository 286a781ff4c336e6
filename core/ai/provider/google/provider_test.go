package google

import (
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: "gemini-2.5-flash", Name: "Gemini 2.5 Flash", API: ai.APIGoogleGenerativeAI, Provider: "google",
		BaseURL: base + "/v1beta", Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		Cost:          ai.Prices{Input: 0.3, Output: 2.5, CacheRead: 0.075},
		ContextWindow: 1048576, MaxTokens: 65536,
	}
}

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider: New(nil),
		Model:    testModel,
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" || r.RawQuery != "alt=sse" {
				t.Errorf("path = %s?%s", r.Path, r.RawQuery)
			}
		},
	})
}

func TestContextOverflow(t *testing.T) {
	llmtest.RunOverflow(t, llmtest.Config{Provider: New(nil), Model: testModel}, 400,
		"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).")
}

func BenchmarkStream(b *testing.B) { llmtest.Bench(b, New(nil), testModel) }
