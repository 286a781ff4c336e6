package azureopenai

import (
	"context"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// testKey is shaped like an Azure OpenAI key (32 hex digits).
const testKey = "0123456789abcdef0123456789abcdef"

// entraToken is shaped like a Microsoft Entra ID access token.
const entraToken = "eyJ0eXAiOiJKV1QifQ.eyJhdWQiOiJodHRwczovL2NvZ25pdGl2ZXNlcnZpY2VzLmF6dXJlLmNvbSJ9.c2ln"

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: "gpt-5.1", Name: "GPT-5.1", API: ai.APIAzureOpenAIResponses, Provider: "azure-openai-responses",
		BaseURL: base + "/openai/v1", Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		Cost:          ai.Prices{Input: 1.25, Output: 10, CacheRead: 0.125},
		ContextWindow: 400000, MaxTokens: 128000,
		Compat: map[string]any{CompatDeployment: "team-gpt51"},
	}
}

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider:        New(nil),
		Model:           testModel,
		APIKey:          testKey,
		PriorToolCallID: "call_prev_1|fc_prev_1",
		Extra:           []llmtest.Scenario{llmtest.ResponsesContentFilter},
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Path != "/openai/v1/responses" || r.RawQuery != "api-version=v1" {
				t.Errorf("path %s?%s", r.Path, r.RawQuery)
			}
			if r.Header.Get("api-key") != testKey || r.Header.Get("Authorization") != "" {
				t.Errorf("api-key %q, Authorization %q", r.Header.Get("api-key"), r.Header.Get("Authorization"))
			}
			if r.JSON()["model"] != "team-gpt51" {
				t.Errorf("model = %v, want the deployment", r.JSON()["model"])
			}
		},
	})
}

func TestContextOverflow(t *testing.T) {
	llmtest.RunOverflow(t, llmtest.Config{Provider: New(nil), Model: testModel, APIKey: testKey}, 400, llmtest.ResponsesOverflow)
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIAzureOpenAIResponses, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok {
		t.Errorf("registry built %T", p)
	}
}

func ask(m *ai.Model, cred string, thinking ai.ThinkingLevel) *ai.AssistantMessage {
	req := &ai.Request{Model: m, APIKey: cred, Thinking: thinking, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	return final
}

func TestEntraTokenIsABearer(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	m := testModel(srv.URL())
	m.Compat = map[string]any{CompatAPIVersion: "2025-04-01-preview"}
	if final := ask(m, entraToken, ai.ThinkingOff); final.StopReason != ai.StopReasonStop {
		t.Fatalf("stop %s: %s", final.StopReason, final.ErrorMessage)
	}
	r := srv.Requests()[0]
	if r.Header.Get("Authorization") != "Bearer "+entraToken || r.Header.Get("api-key") != "" {
		t.Errorf("Authorization %q, api-key %q", r.Header.Get("Authorization"), r.Header.Get("api-key"))
	}
	if r.RawQuery != "api-version=2025-04-01-preview" || r.JSON()["model"] != "gpt-5.1" {
		t.Errorf("query %q, model %v", r.RawQuery, r.JSON()["model"])
	}
}

func TestUnknownDeployment(t *testing.T) {
	srv := mockllm.New(t).AzureDeployments("gpt-4o-prod").Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never")}})
	final := ask(testModel(srv.URL()), testKey, ai.ThinkingOff)
	want := `Azure OpenAI resource ` + srv.URL() + `/openai/v1 has no deployment "team-gpt51" (for model "gpt-5.1"): create it, or map the model to a deployment that exists with AZURE_OPENAI_DEPLOYMENT_NAME_MAP=gpt-5.1=<deployment> (or compat azureDeployment in models.yml)`
	if final.StopReason != ai.StopReasonError || final.ErrorMessage != want {
		t.Errorf("error %q\nwant  %q", final.ErrorMessage, want)
	}
	if ai.IsRetryable(final) {
		t.Error("a missing deployment is marked retryable")
	}
}

func TestUnauthorizedSaysWhatToCheck(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Status: 401, ErrorMessage: "Access denied"})
	final := ask(testModel(srv.URL()), testKey, ai.ThinkingOff)
	if !strings.Contains(final.ErrorMessage, "Access denied; check AZURE_OPENAI_API_KEY") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

func TestNoRequestWithoutBaseOrCredential(t *testing.T) {
	m := testModel("")
	m.BaseURL = ""
	if final := ask(m, testKey, ai.ThinkingOff); !strings.Contains(final.ErrorMessage, "AZURE_OPENAI_RESOURCE_NAME") {
		t.Errorf("no base URL: %q", final.ErrorMessage)
	}
	if final := ask(testModel("http://127.0.0.1:1"), "", ai.ThinkingOff); !strings.Contains(final.ErrorMessage, "AZURE_OPENAI_API_KEY") {
		t.Errorf("no credential: %q", final.ErrorMessage)
	}
}

func TestPayload(t *testing.T) {
	m := testModel("http://x")
	req := &ai.Request{Model: m, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	p := buildPayload(req, "dep")
	input := p["input"].([]any)
	last := input[len(input)-1].(map[string]any)
	if p["model"] != "dep" || last["role"] != "developer" {
		t.Errorf("model %v, last item %v", p["model"], last)
	}
	if inc, _ := p["include"].([]string); len(inc) != 1 {
		t.Errorf("include = %v", p["include"])
	}
	req.Thinking = ai.ThinkingLow
	p = buildPayload(req, "dep")
	if n := len(p["input"].([]any)); n != 1 {
		t.Errorf("thinking on: %d input items, want the user's only", n)
	}
	m.Reasoning = false
	req.Thinking = ai.ThinkingOff
	if _, ok := buildPayload(req, "dep")["include"]; ok {
		t.Error("include sent for a model without reasoning")
	}
	req.Cache, req.SessionID = ai.CacheLong, strings.Repeat("s", 80)
	p = buildPayload(req, "dep")
	if _, ok := p["prompt_cache_retention"]; ok {
		t.Error("prompt_cache_retention sent to Azure")
	}
	if key, _ := p["prompt_cache_key"].(string); !strings.HasPrefix(key, "pc_") {
		t.Errorf("prompt_cache_key = %q, want a hashed key", key)
	}
}
