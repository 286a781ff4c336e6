package geminicli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestParseCredentials(t *testing.T) {
	c, err := ParseCredentials(`{"token":"t","project_id":"p","refresh":"r","expires":1767225600}`, "google-gemini-cli")
	if err != nil || c.Token != "t" || c.ProjectID != "p" || c.RefreshToken != "r" || !c.ExpiresAt.Equal(time.Unix(1767225600, 0)) {
		t.Errorf("alternate names: %+v, %v", c, err)
	}
	c, err = ParseCredentials(testKey, "google-gemini-cli")
	if err != nil || c.ProjectID != "proj-123" || c.ExpiresAt.UnixMilli() != 4102444800000 {
		t.Errorf("omp's form: %+v, %v", c, err)
	}
	for key, want := range map[string]string{
		"ya29.plain":                  "not the JSON a Google sign-in stores; sign in again with `gopi login google-gemini-cli`",
		`{"token":"t"}`:               "lack the access token or the project id",
		`{"projectId":"p"}`:           "lack the access token or the project id",
		`{"token":1,"projectId":"p"}`: "lack the access token",
	} {
		if _, err := ParseCredentials(key, "google-gemini-cli"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", key, err, want)
		}
	}
}

func TestCredentialsKeyRoundTrip(t *testing.T) {
	c := Credentials{Token: "ya29.x", ProjectID: "p", RefreshToken: "1//r", ExpiresAt: time.UnixMilli(1767225600123)}
	if k := c.Key(); k != `{"token":"ya29.x","projectId":"p","refreshToken":"1//r","expiresAt":1767225600123}` {
		t.Errorf("Key() = %s", k)
	}
	back, err := ParseCredentials(c.Key(), "google-gemini-cli")
	if err != nil || back != c {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestRetryHint(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	cases := []struct {
		h    http.Header
		body string
		want time.Duration
	}{
		{http.Header{"X-Ratelimit-Reset": {"1700000030"}}, "", 30 * time.Second},
		{http.Header{"X-Ratelimit-Reset-After": {"7"}}, "", 7 * time.Second},
		{nil, `{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34.5s"}]}}`, 34500 * time.Millisecond},
		{nil, "Your quota will reset after 18h31m10s.", 18*time.Hour + 31*time.Minute + 10*time.Second},
		{nil, "Your quota will reset after 39s.", 39 * time.Second},
		{nil, "Please retry in 250ms", 250 * time.Millisecond},
		{nil, "Please retry in 3s", 3 * time.Second},
		{nil, "nothing here", 0},
		{http.Header{"X-Ratelimit-Reset": {"1600000000"}}, "", 0}, // in the past
		{nil, "Please retry in 99999999999s", 0},
	}
	for _, c := range cases {
		if got := retryHint(c.h, []byte(c.body), now); got != c.want {
			t.Errorf("%v %q: %v, want %v", c.h, c.body, got, c.want)
		}
	}
}

func TestSanitizeSchema(t *testing.T) {
	in := `{"$schema":"x","type":"object","additionalProperties":false,"properties":{
		"pattern":{"type":"string","pattern":"^a","minLength":1},
		"mode":{"anyOf":[{"const":"a"},{"const":"b"},{"const":"a"}],"description":"m"},
		"kind":{"const":"fixed"},
		"maybe":{"type":["string","null"],"nullable":true},
		"nested":{"type":"object"}},"required":["pattern"]}`
	got, _ := json.Marshal(sanitizeSchema(json.RawMessage(in)))
	want := `{"properties":{"kind":{"enum":["fixed"],"type":"string"},"maybe":{"type":"string"},"mode":{"description":"m","enum":["a","b"],"type":"string"},"nested":{"properties":{},"type":"object"},"pattern":{"type":"string"}},"required":["pattern"],"type":"object"}`
	if string(got) != want {
		t.Errorf("sanitized\n%s\nwant\n%s", got, want)
	}
	got, _ = json.Marshal(claudeSchema(json.RawMessage(`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`)))
	if string(got) != `{"properties":{"a":{"type":"string"}},"type":"object"}` {
		t.Errorf("nullable union for Claude = %s", got)
	}
	got, _ = json.Marshal(claudeSchema(json.RawMessage(`{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`)))
	if string(got) != `{"properties":{},"type":"object"}` {
		t.Errorf("a real union for Claude = %s, want the fallback", got)
	}
	if got, _ := json.Marshal(sanitizeSchema(json.RawMessage(`not json`))); string(got) != `{"properties":{},"type":"object"}` {
		t.Errorf("broken schema = %s", got)
	}
}

func request(m *ai.Model, thinking ai.ThinkingLevel) *ai.Request {
	return &ai.Request{Model: m, Thinking: thinking, MaxTokens: 4096, SystemPrompt: "sys",
		Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("same first words")}}},
		Tools:    []ai.Tool{{Name: "t", Parameters: json.RawMessage(`{"type":"object","properties":{"p":{"type":"string","format":"uri"}}}`)}},
	}
}

func fixedID() string { return "agent-x" }

func TestAntigravityGeminiRequest(t *testing.T) {
	m := &ai.Model{ID: "gemini-3-pro-low", API: ai.APIGoogleGeminiCLI, Provider: AntigravityProvider, Reasoning: true, MaxTokens: 65535}
	body := buildRequest(request(m, ai.ThinkingHigh), "p", true, fixedID)
	inner := body["request"].(map[string]any)
	gen := inner["generationConfig"].(map[string]any)
	if _, ok := gen["maxOutputTokens"]; ok {
		t.Errorf("maxOutputTokens sent to an Antigravity Gemini model: %v", gen)
	}
	if tc := gen["thinkingConfig"].(map[string]any); tc["thinkingLevel"] != "HIGH" {
		t.Errorf("thinkingConfig = %v", tc)
	}
	decl := inner["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)[0].(map[string]any)
	if _, ok := decl["parametersJsonSchema"]; ok || decl["parameters"] == nil {
		t.Errorf("Antigravity declaration = %v", decl)
	}
	if si := inner["systemInstruction"].(map[string]any); si["role"] != nil {
		t.Errorf("identity injected for gemini-3-pro-low: %v", si)
	}
	again := buildRequest(request(m, ai.ThinkingHigh), "p", true, fixedID)["request"].(map[string]any)
	if inner["sessionId"] != again["sessionId"] || !strings.HasPrefix(inner["sessionId"].(string), "-") {
		t.Errorf("session ids %v and %v differ for one conversation", inner["sessionId"], again["sessionId"])
	}
	if body["requestType"] != "agent" || body["userAgent"] != "antigravity" || body["requestId"] != "agent-x" {
		t.Errorf("envelope = %v", body)
	}

	m.ID = "gemini-3-pro-high"
	inner = buildRequest(request(m, ai.ThinkingHigh), "p", true, fixedID)["request"].(map[string]any)
	if si := inner["systemInstruction"].(map[string]any); si["role"] != "user" || len(si["parts"].([]any)) != 3 {
		t.Errorf("gemini-3-pro-high system instruction = %v", si)
	}
}

func TestGeminiCLIThinking(t *testing.T) {
	m := &ai.Model{ID: "gemini-2.5-pro", API: ai.APIGoogleGeminiCLI, Provider: "google-gemini-cli", Reasoning: true, MaxTokens: 65536}
	gen := buildRequest(request(m, ai.ThinkingOff), "p", false, fixedID)["request"].(map[string]any)["generationConfig"].(map[string]any)
	if _, ok := gen["thinkingConfig"]; ok {
		t.Errorf("thinking off still sends %v", gen)
	}
	gen = buildRequest(request(m, ai.ThinkingMedium), "p", false, fixedID)["request"].(map[string]any)["generationConfig"].(map[string]any)
	if gen["maxOutputTokens"] != 4096+8192 || gen["thinkingConfig"].(map[string]any)["thinkingBudget"] != 8192 {
		t.Errorf("budget fit = %v", gen)
	}
	m.MaxTokens = 5000 // the budget cannot fit: it shrinks to leave room for the answer
	gen = buildRequest(request(m, ai.ThinkingMedium), "p", false, fixedID)["request"].(map[string]any)["generationConfig"].(map[string]any)
	if gen["maxOutputTokens"] != 5000 || gen["thinkingConfig"].(map[string]any)["thinkingBudget"] != 5000-minOutputTokens {
		t.Errorf("shrunk budget = %v", gen)
	}
	m.MaxTokens = 1000
	gen = buildRequest(request(m, ai.ThinkingMedium), "p", false, fixedID)["request"].(map[string]any)["generationConfig"].(map[string]any)
	if _, ok := gen["thinkingConfig"]; ok {
		t.Errorf("no room for thinking, yet %v", gen)
	}
}
