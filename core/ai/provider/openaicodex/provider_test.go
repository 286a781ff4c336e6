package openaicodex

import (
	"encoding/base64"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// testToken is an access token shaped like the ChatGPT sign-in's: a JWT
// whose auth claim names account "acct_test_1" (the signature is not
// checked by clients).
var testToken = jwt(`{"exp":1900000000,"https://api.openai.com/auth":{"chatgpt_account_id":"acct_test_1","chatgpt_plan_type":"plus"}}`)

// jwt builds an unsigned-looking JWT around a payload.
func jwt(payload string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc([]byte(payload)) + ".c2ln"
}

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: "gpt-5.1-codex", Name: "GPT-5.1 Codex", API: ai.APIOpenAICodexResponses, Provider: "openai-codex",
		BaseURL: base + "/backend-api", Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		ContextWindow: 272000, MaxTokens: 128000,
	}
}

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider:        New(nil),
		Model:           testModel,
		APIKey:          testToken,
		PriorToolCallID: "call_prev_1|fc_prev_1",
		Extra:           []llmtest.Scenario{llmtest.ResponsesContentFilter},
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Path != "/backend-api/codex/responses" {
				t.Errorf("path = %s", r.Path)
			}
			for name, want := range map[string]string{
				"Authorization":       "Bearer " + testToken,
				"Chatgpt-Account-Id":  "acct_test_1",
				"OpenAI-Beta":         "responses=experimental",
				"Originator":          "pi",
				"X-Client-Request-Id": "req_test_1",
				"Accept":              "text/event-stream",
			} {
				if got := r.Header.Get(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		},
	})
}

func TestContextOverflow(t *testing.T) {
	llmtest.RunOverflow(t, llmtest.Config{Provider: New(nil), Model: testModel, APIKey: testToken}, 400, llmtest.ResponsesOverflow)
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIOpenAICodexResponses, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok {
		t.Errorf("registry built %T", p)
	}
}
