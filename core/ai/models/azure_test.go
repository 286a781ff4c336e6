package models

import (
	"context"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/azureopenai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

const azureYAML = `providers:
  azure-openai-responses:
    models:
      - id: gpt-5.1
        reasoning: true
        compat: {azureDeployment: from-yaml}
      - id: o3
  my-azure:
    baseUrl: https://mine.openai.azure.com/openai/v1
    api: azure-openai-responses
    models:
      - id: gpt-4o
`

// prepareAzure loads azureYAML with vars and prepares a request for
// provider/id.
func prepareAzure(t *testing.T, vars map[string]string, provider, id string) (*ai.Request, error) {
	t.Helper()
	r, err := withConfig(t, azureYAML, "", vars)
	if err != nil {
		t.Fatal(err)
	}
	var m *ai.Model
	for _, c := range r.Models() {
		if c.Provider == provider && c.ID == id {
			m = c
		}
	}
	if m == nil {
		t.Fatalf("%s/%s not declared", provider, id)
	}
	req := &ai.Request{Model: m}
	return req, r.Prepare(context.Background(), req)
}

func TestAzureFromTheEnvironment(t *testing.T) {
	req, err := prepareAzure(t, map[string]string{
		"AZURE_OPENAI_API_KEY":             "k1",
		"AZURE_OPENAI_RESOURCE_NAME":       "contoso",
		"AZURE_OPENAI_API_VERSION":         "2025-04-01-preview",
		"AZURE_OPENAI_DEPLOYMENT_NAME_MAP": "o3=o3-east, gpt-5.1=from-env",
	}, "azure-openai-responses", "gpt-5.1")
	if err != nil {
		t.Fatal(err)
	}
	if req.APIKey != "k1" || req.BaseURL != "https://contoso.openai.azure.com/openai/v1" {
		t.Errorf("key %q, base %q", req.APIKey, req.BaseURL)
	}
	if d, v := azureopenai.Deployment(req.Model), azureopenai.APIVersion(req.Model); d != "from-env" || v != "2025-04-01-preview" {
		t.Errorf("deployment %q, version %q", d, v)
	}
}

func TestAzureBaseURLWinsOverResourceName(t *testing.T) {
	req, err := prepareAzure(t, map[string]string{
		"AZURE_OPENAI_API_KEY": "k", "AZURE_OPENAI_RESOURCE_NAME": "contoso",
		"AZURE_OPENAI_BASE_URL": "https://gateway.example/openai/v1/",
	}, "azure-openai-responses", "o3")
	if err != nil {
		t.Fatal(err)
	}
	if req.BaseURL != "https://gateway.example/openai/v1" || azureopenai.Deployment(req.Model) != "o3" || azureopenai.APIVersion(req.Model) != "v1" {
		t.Errorf("base %q, deployment %q, version %q", req.BaseURL, azureopenai.Deployment(req.Model), azureopenai.APIVersion(req.Model))
	}
}

func TestAzureModelsYAMLDeploymentAndSharedModel(t *testing.T) {
	r, err := withConfig(t, azureYAML, "", map[string]string{"AZURE_OPENAI_API_KEY": "k", "AZURE_OPENAI_API_VERSION": "x"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Find("azure-openai-responses/gpt-5.1")
	if err != nil {
		t.Fatal(err)
	}
	req := &ai.Request{Model: m}
	if err := r.Prepare(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if azureopenai.Deployment(req.Model) != "from-yaml" || azureopenai.APIVersion(req.Model) != "x" {
		t.Errorf("deployment %q (want models.yml's), version %q", azureopenai.Deployment(req.Model), azureopenai.APIVersion(req.Model))
	}
	// The environment's settings go into the request's copy of the model,
	// never into the registry's.
	if _, leaked := m.Compat[azureopenai.CompatAPIVersion]; leaked || req.Model == m {
		t.Errorf("registry model changed: %v", m.Compat)
	}
}

func TestAzureProviderOfAnotherName(t *testing.T) {
	req, err := prepareAzure(t, map[string]string{"AZURE_OPENAI_API_KEY": "k2"}, "my-azure", "gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	if req.APIKey != "k2" || req.EffectiveBaseURL() != "https://mine.openai.azure.com/openai/v1" {
		t.Errorf("key %q, base %q", req.APIKey, req.EffectiveBaseURL())
	}
}

func TestAzureWithoutKeySaysWhichVariable(t *testing.T) {
	_, err := prepareAzure(t, nil, "azure-openai-responses", "o3")
	if err == nil || !strings.Contains(err.Error(), "AZURE_OPENAI_API_KEY") {
		t.Errorf("err = %v", err)
	}
}

// TestAzureEndToEnd sends a prepared request to the Azure double: the
// mapped deployment is found, an unmapped model names its deployment.
func TestAzureEndToEnd(t *testing.T) {
	srv := mockllm.New(t).AzureDeployments("o3-east").Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hello")}})
	vars := map[string]string{
		"AZURE_OPENAI_API_KEY":             "k",
		"AZURE_OPENAI_BASE_URL":            srv.URL() + "/openai/v1",
		"AZURE_OPENAI_DEPLOYMENT_NAME_MAP": "o3=o3-east",
	}
	r, err := withConfig(t, azureYAML, "", vars)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"o3": "hello", "gpt-5.1": `no deployment "from-yaml" (for model "gpt-5.1")`} {
		m, _ := r.Find("azure-openai-responses/" + id)
		if m == nil {
			t.Fatalf("azure-openai-responses/%s not found", id)
		}
		req := &ai.Request{Model: m, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		_, final := r.Stream(context.Background(), req, nil).Collect()
		got := final.ErrorMessage
		if final.StopReason == ai.StopReasonStop {
			got = final.Text()
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}
