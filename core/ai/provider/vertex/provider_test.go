package vertex

import (
	"context"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: "gemini-2.5-flash", Name: "Gemini 2.5 Flash", API: ai.APIGoogleVertex, Provider: "google-vertex",
		BaseURL: base, Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		Cost:          ai.Prices{Input: 0.3, Output: 2.5, CacheRead: 0.075},
		ContextWindow: 1048576, MaxTokens: 65536,
	}
}

// adcProvider is a provider in project "proj", location us-central1, with
// authorized-user credentials exchanged at a local token server.
func adcProvider(t *testing.T) *Provider {
	ts := newTokenServer(t)
	a, err := ParseADC(userFile(ts.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	return New(nil, Settings{Project: "proj", Location: "us-central1", Credentials: a})
}

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider: adcProvider(t),
		Model:    testModel,
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Format != mockllm.FormatVertex || r.Path != "/v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent" || r.RawQuery != "alt=sse" {
				t.Errorf("request %s %s?%s", r.Format, r.Path, r.RawQuery)
			}
			if got := r.Header.Get("Authorization"); !strings.HasPrefix(got, "Bearer ya29.token-") {
				t.Errorf("Authorization = %q", got)
			}
			if got := r.Header.Get("X-Goog-User-Project"); got != "billing-proj" {
				t.Errorf("x-goog-user-project = %q", got)
			}
			if r.Header.Get("X-Goog-Api-Key") != "" {
				t.Error("an API key header was sent with credentials")
			}
		},
	})
}

func TestContextOverflow(t *testing.T) {
	llmtest.RunOverflow(t, llmtest.Config{Provider: adcProvider(t), Model: testModel}, 400,
		"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).")
}

func TestExpressModeWithAPIKey(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	req := &ai.Request{Model: testModel(srv.URL()), APIKey: "AQ.key", Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil, Settings{}).Stream(context.Background(), req).Collect()
	if final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent" || r.Header.Get("X-Goog-Api-Key") != "AQ.key" || r.Header.Get("Authorization") != "" {
		t.Errorf("express request %s key %q auth %q", r.Path, r.Header.Get("X-Goog-Api-Key"), r.Header.Get("Authorization"))
	}
}

func TestHostOverride(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	req := &ai.Request{Model: testModel("https://{location}-aiplatform.googleapis.com"), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	p := New(nil, Settings{Project: "p", Location: "us-east5", Host: srv.URL(), Credentials: staticToken("t")})
	if _, final := p.Stream(context.Background(), req).Collect(); final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	if r := srv.Requests()[0]; r.Path != "/v1/projects/p/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent" {
		t.Errorf("path = %s", r.Path)
	}
}

func TestMissingSettings(t *testing.T) {
	srv := mockllm.New(t)
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Location: "us-central1"}, "needs a project: set GOOGLE_CLOUD_PROJECT"},
		{Settings{Project: "p"}, "needs a location: set GOOGLE_CLOUD_LOCATION"},
		{Settings{Project: "p", Location: "global"}, ErrNoCredentials.Error()},
	} {
		req := &ai.Request{Model: testModel(srv.URL()), APIKey: ADCMarker, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		_, final := New(nil, c.s).Stream(context.Background(), req).Collect()
		if final.StopReason != ai.StopReasonError || !strings.Contains(final.ErrorMessage, c.want) {
			t.Errorf("%+v: %s %q, want %q", c.s, final.StopReason, final.ErrorMessage, c.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent without settings", n)
	}
}

func TestTokenFailureSendsNothing(t *testing.T) {
	ts := newTokenServer(t)
	ts.fail = "invalid_grant"
	a, _ := ParseADC(userFile(ts.URL), nil)
	srv := mockllm.New(t)
	req := &ai.Request{Model: testModel(srv.URL()), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil, Settings{Project: "p", Location: "us-central1", Credentials: a}).Stream(context.Background(), req).Collect()
	if !strings.Contains(final.ErrorMessage, "invalid_grant") || len(srv.Requests()) != 0 {
		t.Errorf("error %q after %d requests", final.ErrorMessage, len(srv.Requests()))
	}
}

func TestUnauthenticatedAnswer(t *testing.T) {
	// A provider whose credentials yield an empty token: the double answers
	// 401 as Vertex does, and the message says so.
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never")}})
	req := &ai.Request{Model: testModel(srv.URL()), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil, Settings{Project: "p", Location: "us-central1", Credentials: emptyToken{}}).Stream(context.Background(), req).Collect()
	if !strings.HasPrefix(final.ErrorMessage, "HTTP 401 Unauthorized: Request is missing required authentication credential") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

type emptyToken struct{}

func (emptyToken) Token(context.Context) (string, error) { return "", nil }
func (emptyToken) QuotaProject() string                  { return "" }

func TestEndpoints(t *testing.T) {
	const tmpl = "https://{location}-aiplatform.googleapis.com"
	const path = "/v1/projects/p/locations/%s/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
	for _, c := range []struct{ base, loc, want string }{
		{tmpl, "us-central1", "https://us-central1-aiplatform.googleapis.com" + path},
		{tmpl, "europe-west4", "https://europe-west4-aiplatform.googleapis.com" + path},
		{tmpl, "global", "https://aiplatform.googleapis.com" + path},
		{"", "global", "https://aiplatform.googleapis.com" + path},
		{tmpl, "us", "https://aiplatform.us.rep.googleapis.com" + path},
		{tmpl, "eu", "https://aiplatform.eu.rep.googleapis.com" + path},
		{"", "asia-northeast1", "https://asia-northeast1-aiplatform.googleapis.com" + path},
		{"http://127.0.0.1:9/", "us-central1", "http://127.0.0.1:9" + path},
	} {
		got, err := regionalURL(c.base, "gemini-2.5-pro", Settings{Project: "p", Location: c.loc})
		want := strings.Replace(c.want, "%s", c.loc, 1)
		if err != nil || got != want {
			t.Errorf("%s in %s: %q, %v; want %q", c.base, c.loc, got, err, want)
		}
	}
	if got := expressURL("https://{location}-aiplatform.googleapis.com", "gemini-2.5-pro"); got != "https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse" {
		t.Errorf("express URL = %q", got)
	}
	if _, err := regionalURL(tmpl, "m", Settings{Project: "a/b", Location: "us-central1"}); err == nil {
		t.Error("a project with a slash was accepted")
	}
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIGoogleVertex, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok {
		t.Errorf("registry built %T", p)
	}
}

func TestGemini3ThinkingAndReplayedCalls(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	m := testModel(srv.URL())
	m.ID = "gemini-3-pro-preview"
	req := llmtest.Conversation(m, "")
	_, final := New(nil, Settings{}).Stream(context.Background(), withKey(req)).Collect()
	if final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	body := srv.Requests()[0].JSON()
	tc := body["generationConfig"].(map[string]any)["thinkingConfig"].(map[string]any)
	if tc["thinkingLevel"] != "high" || tc["includeThoughts"] != true {
		t.Errorf("thinkingConfig = %v", tc)
	}
	// The earlier reply's function call carries the placeholder signature
	// Gemini 3 needs, and no id (Vertex refuses ids).
	model := body["contents"].([]any)[1].(map[string]any)["parts"].([]any)
	call := model[len(model)-1].(map[string]any)
	fc := call["functionCall"].(map[string]any)
	if call["thoughtSignature"] != "skip_thought_signature_validator" || fc["id"] != nil {
		t.Errorf("replayed call = %v", call)
	}
}

func withKey(req *ai.Request) *ai.Request {
	req.APIKey = "AQ.key"
	return req
}

func BenchmarkStream(b *testing.B) {
	p := New(nil, Settings{Project: "proj", Location: "us-central1", Credentials: staticToken("ya29.bench")})
	llmtest.Bench(b, p, testModel)
}

// staticToken is credentials with a fixed token.
type staticToken string

func (s staticToken) Token(context.Context) (string, error) { return string(s), nil }
func (staticToken) QuotaProject() string                    { return "" }
