package mockllm

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"
)

// send posts body to srv's path with headers and returns the status and
// response body.
func send(t *testing.T, srv *Server, path, body string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func TestCodexRules(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	token := enc([]byte(`{}`)) + "." + enc([]byte(`{"https://api.openai.com/auth":{"chatgpt_account_id":"acct_1"}}`)) + ".sig"
	good := map[string]string{"Authorization": "Bearer " + token, "chatgpt-account-id": "acct_1",
		"OpenAI-Beta": "responses=experimental", "originator": "pi"}
	with := func(k, v string) map[string]string {
		h := map[string]string{}
		for a, b := range good {
			h[a] = b
		}
		h[k] = v
		return h
	}
	const body = `{"model":"gpt-5","stream":true,"store":false}`
	for _, tc := range []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		want    string
	}{
		{"no token", with("Authorization", ""), body, 401, "no bearer access token"},
		{"not a ChatGPT token", with("Authorization", "Bearer sk-abc"), body, 401, "chatgpt_account_id"},
		{"wrong account", with("chatgpt-account-id", "acct_2"), body, 401, `is not the token's account \"acct_1\"`},
		{"no beta", with("OpenAI-Beta", ""), body, 400, "responses=experimental"},
		{"no originator", with("originator", ""), body, 400, "no originator"},
		{"stored", good, `{"model":"gpt-5","stream":true,"store":true}`, 400, `\"store\" must be false`},
		{"max tokens", good, `{"model":"gpt-5","stream":true,"store":false,"max_output_tokens":9}`, 400, "max_output_tokens"},
	} {
		srv := New(t).Script(Turn{Blocks: []Block{Text("ok")}})
		status, got := send(t, srv, "/backend-api/codex/responses", tc.body, tc.headers)
		if status != tc.status || !strings.Contains(got, "mockllm: codex: ") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %d %s", tc.name, status, got)
		}
		if srv.Remaining() != 1 {
			t.Errorf("%s: a refused request consumed a turn", tc.name)
		}
	}
	srv := New(t).Script(Turn{Blocks: []Block{Text("ok")}})
	if status, got := send(t, srv, "/backend-api/codex/responses", body, good); status != 200 || !strings.Contains(got, "response.completed") {
		t.Errorf("a valid request: %d %s", status, got)
	}
}

func TestAzureRules(t *testing.T) {
	const body = `{"model":"my-gpt5","stream":true}`
	key := map[string]string{"api-key": "k"}
	for _, tc := range []struct {
		name    string
		path    string
		headers map[string]string
		body    string
		status  int
		want    string
	}{
		{"no api-version", "/openai/v1/responses", key, body, 400, "MissingApiVersionParameter"},
		{"no credential", "/openai/v1/responses?api-version=v1", nil, body, 401, azureAccessDenied},
		{"unknown deployment", "/openai/v1/responses?api-version=v1", key, `{"model":"gpt-5","stream":true}`, 404, `"code":"DeploymentNotFound"`},
		{"unknown deployment in the path", "/openai/deployments/gpt-5/chat/completions?api-version=2024-10-21", key, body, 404, `"code":"DeploymentNotFound"`},
	} {
		srv := New(t).AzureDeployments("my-gpt5").Script(Turn{Blocks: []Block{Text("ok")}})
		status, got := send(t, srv, tc.path, tc.body, tc.headers)
		if status != tc.status || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %d %s", tc.name, status, got)
		}
		if srv.Remaining() != 1 {
			t.Errorf("%s: a refused request consumed a turn", tc.name)
		}
	}
	for _, h := range []map[string]string{key, {"Authorization": "Bearer entra-token"}} {
		srv := New(t).AzureDeployments("my-gpt5").Script(Turn{Blocks: []Block{Text("ok")}})
		if status, got := send(t, srv, "/openai/v1/responses?api-version=v1", body, h); status != 200 || !strings.Contains(got, `"model":"my-gpt5"`) {
			t.Errorf("%v: %d %s", h, status, got)
		}
	}
	srv := New(t).AzureDeployments("team").Script(Turn{Blocks: []Block{Text("ok")}})
	if status, got := send(t, srv, "/openai/deployments/team/chat/completions?api-version=2024-10-21", `{"messages":[],"stream":true}`, key); status != 200 || !strings.Contains(got, "[DONE]") {
		t.Errorf("deployment path: %d %s", status, got)
	}
	// Without declared deployments every deployment exists.
	srv = New(t).Script(Turn{Blocks: []Block{Text("ok")}})
	if status, _ := send(t, srv, "/openai/responses?api-version=2025-04-01-preview", `{"model":"any","stream":true}`, key); status != 200 {
		t.Errorf("undeclared deployments: status %d", status)
	}
}
