package main

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// TestAIAgainstTheCodexDouble runs `gopi ai` with the models.yml recipe of
// docs/providers.md for the ChatGPT backend, against the mock's Codex
// checks (headers, token, body).
func TestAIAgainstTheCodexDouble(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	token := enc([]byte(`{"alg":"RS256"}`)) + "." + enc([]byte(`{"https://api.openai.com/auth":{"chatgpt_account_id":"acct_cli"}}`)) + ".c2ln"
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Hello from the backend.")}})
	isolateAgentEnv(t, "providers:\n  openai-codex:\n    baseUrl: "+srv.URL()+"/backend-api\n    api: openai-codex-responses\n"+
		"    apiKey: OPENAI_CODEX_OAUTH_TOKEN\n    models: [{id: gpt-5.1-codex, reasoning: true, input: [text, image]}]\n")
	t.Setenv("OPENAI_CODEX_OAUTH_TOKEN", token)
	out, errOut, code := runCmd(t, "ai", "-m", "openai-codex/gpt-5.1-codex:high", "-s", "Be brief.", "say", "hello")
	if code != 0 || out != "Hello from the backend.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	r := srv.Requests()[0]
	if r.Path != "/backend-api/codex/responses" || r.Header.Get("chatgpt-account-id") != "acct_cli" || r.JSON()["instructions"] != "Be brief." {
		t.Errorf("path %s, account %q, instructions %v", r.Path, r.Header.Get("chatgpt-account-id"), r.JSON()["instructions"])
	}
}

// TestAIAgainstTheAzureDouble runs `gopi ai` with an Azure model from
// models.yml and the AZURE_OPENAI_* environment: a mapped deployment
// answers, an unmapped one fails in one line naming it.
func TestAIAgainstTheAzureDouble(t *testing.T) {
	srv := mockllm.New(t).AzureDeployments("team-gpt51").Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Hello from Azure.")}})
	isolateAgentEnv(t, "providers:\n  azure-openai-responses:\n    models: [{id: gpt-5.1, reasoning: true}, {id: o3, reasoning: true}]\n")
	t.Setenv("AZURE_OPENAI_API_KEY", "0123456789abcdef0123456789abcdef")
	t.Setenv("AZURE_OPENAI_BASE_URL", srv.URL()+"/openai/v1")
	t.Setenv("AZURE_OPENAI_RESOURCE_NAME", "")
	t.Setenv("AZURE_OPENAI_API_VERSION", "2025-04-01-preview")
	t.Setenv("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "gpt-5.1=team-gpt51")
	out, errOut, code := runCmd(t, "ai", "-m", "azure-openai-responses/gpt-5.1", "say", "hello")
	if code != 0 || out != "Hello from Azure.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if r := srv.Requests()[0]; r.RawQuery != "api-version=2025-04-01-preview" || r.JSON()["model"] != "team-gpt51" {
		t.Errorf("query %q, model %v", r.RawQuery, r.JSON()["model"])
	}
	_, errOut, code = runCmd(t, "ai", "-m", "azure-openai-responses/o3", "say", "hello")
	if code != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, `no deployment "o3"`) ||
		!strings.Contains(errOut, "AZURE_OPENAI_DEPLOYMENT_NAME_MAP=o3=<deployment>") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
