package geminicli

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// testKey is the API key a Gemini CLI sign-in hands a request.
const testKey = `{"token":"ya29.cca","projectId":"proj-123","refreshToken":"1//r","expiresAt":4102444800000,"email":"u@example.com"}`

// keyed gives every request the sign-in's key, as the registry does.
type keyed struct{ p ai.Provider }

func (k keyed) API() ai.API { return k.p.API() }
func (k keyed) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	req.APIKey = testKey
	return k.p.Stream(ctx, req)
}

func cliModel(base string) *ai.Model {
	return &ai.Model{
		ID: "gemini-2.5-flash", Name: "Gemini 2.5 Flash", API: ai.APIGoogleGeminiCLI, Provider: "google-gemini-cli",
		BaseURL: base, Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		ContextWindow: 1048576, MaxTokens: 65536,
	}
}

func antigravityClaude(base string) *ai.Model {
	return &ai.Model{
		ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5", API: ai.APIGoogleGeminiCLI, Provider: AntigravityProvider,
		BaseURL: base, Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		ContextWindow: 1000000, MaxTokens: 64000,
	}
}

// fixedProvider is a provider whose Antigravity request ids are fixed, so
// request bodies can be compared with goldens.
func fixedProvider() *Provider {
	p := New(nil, Settings{})
	p.newID = func() string { return "agent-00000000-0000-4000-8000-000000000000" }
	return p
}

func checkEnvelope(t *testing.T, r mockllm.Request, model string) {
	if r.Format != mockllm.FormatCodeAssist || r.Path != "/v1internal:streamGenerateContent" || r.RawQuery != "alt=sse" {
		t.Errorf("request %s %s?%s", r.Format, r.Path, r.RawQuery)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer ya29.cca" {
		t.Errorf("Authorization = %q", got)
	}
	body := r.JSON()
	if body["project"] != "proj-123" || body["model"] != model {
		t.Errorf("envelope project %v model %v", body["project"], body["model"])
	}
}

func TestScenariosGeminiCLI(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider: keyed{fixedProvider()},
		Model:    cliModel,
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			checkEnvelope(t, r, "gemini-2.5-flash")
			if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "GeminiCLI/0.35.3/gemini-2.5-flash (") || !strings.HasSuffix(ua, "; terminal)") {
				t.Errorf("User-Agent = %q", ua)
			}
			if r.Header.Get("Client-Metadata") != clientMetadata {
				t.Errorf("Client-Metadata = %q", r.Header.Get("Client-Metadata"))
			}
		},
	})
}

func TestScenariosAntigravityClaude(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider: keyed{fixedProvider()},
		Model:    antigravityClaude,
		Dir:      filepath.Join("testdata", "golden-antigravity-claude"),
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			checkEnvelope(t, r, "claude-sonnet-4-5")
			if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "antigravity/1.104.0 ") {
				t.Errorf("User-Agent = %q", ua)
			}
			if r.Header.Get("anthropic-beta") != claudeThinkingBeta {
				t.Errorf("anthropic-beta = %q", r.Header.Get("anthropic-beta"))
			}
		},
	})
}

func TestContextOverflow(t *testing.T) {
	llmtest.RunOverflow(t, llmtest.Config{Provider: keyed{New(nil, Settings{})}, Model: cliModel}, 400,
		"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).")
}

func oneTurn(text string) *ai.Request {
	return &ai.Request{APIKey: testKey, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(text)}}}}
}

func TestExpiredTokenIsNotSent(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never")}})
	p := New(nil, Settings{})
	p.now = func() time.Time { return time.UnixMilli(4102444800000) }
	req := oneTurn("hi")
	req.Model = cliModel(srv.URL())
	_, final := p.Stream(context.Background(), req).Collect()
	if !strings.Contains(final.ErrorMessage, "sign-in expired at 2100-01-01T00:00:00Z") || !strings.Contains(final.ErrorMessage, "gopi login google-gemini-cli") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent with an expired token", n)
	}
}

func TestAntigravityFallsBackToTheNextHost(t *testing.T) {
	var hits int
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":{"code":503,"message":"The service is currently unavailable.","status":"UNAVAILABLE"}}`))
	}))
	t.Cleanup(down.Close)
	up := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("from the sandbox")}})
	p := New(nil, Settings{})
	p.fallback = []string{down.URL, up.URL()}
	req := oneTurn("hi")
	req.Model = antigravityClaude("")
	_, final := p.Stream(context.Background(), req).Collect()
	if final.Text() != "from the sandbox" || hits != 1 || len(up.Requests()) != 1 {
		t.Fatalf("final %q (%s), %d hits on the first host, %d on the second", final.Text(), final.ErrorMessage, hits, len(up.Requests()))
	}
	// A model with a base URL uses it alone.
	if got := p.endpoints("https://example.test", true); len(got) != 1 {
		t.Errorf("endpoints with a base URL = %v", got)
	}
	if got := New(nil, Settings{}).endpoints("", true); len(got) != 2 || got[0] != AntigravityDailyEndpoint || got[1] != AntigravitySandboxEndpoint {
		t.Errorf("Antigravity endpoints = %v", got)
	}
	if got := New(nil, Settings{}).endpoints("", false); len(got) != 1 || got[0] != DefaultEndpoint {
		t.Errorf("Gemini CLI endpoints = %v", got)
	}
}

func TestExhaustedQuotaIsFinal(t *testing.T) {
	first := mockllm.New(t).Script(mockllm.Turn{Status: 429, ErrorMessage: "Resource has been exhausted (e.g. check quota). Your quota will reset after 1h2m3s."})
	second := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("no")}})
	p := New(nil, Settings{})
	p.fallback = []string{first.URL(), second.URL()}
	req := oneTurn("hi")
	req.Model = antigravityClaude("")
	_, final := p.Stream(context.Background(), req).Collect()
	want := "Cloud Code Assist API error (429): Resource has been exhausted (e.g. check quota). Your quota will reset after 1h2m3s. (the quota resets in 1h2m3s)"
	if final.ErrorMessage != want {
		t.Errorf("error = %q\nwant    %q", final.ErrorMessage, want)
	}
	if ai.IsRetryable(final) {
		t.Error("an exhausted quota is marked retryable")
	}
	if len(second.Requests()) != 0 {
		t.Error("an exhausted quota moved on to the next host")
	}
}

func TestRateLimitKeepsTheHint(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Status: 429, ErrorMessage: "Too many requests. Please retry in 2.5s"})
	req := oneTurn("hi")
	req.Model = cliModel(srv.URL())
	_, final := New(nil, Settings{}).Stream(context.Background(), req).Collect()
	if final.ErrorMessage != "HTTP 429 Too Many Requests: Too many requests. Please retry in 2.5s (retry after 2.5s)" || !ai.IsRetryable(final) {
		t.Errorf("error = %q (retryable %v)", final.ErrorMessage, ai.IsRetryable(final))
	}
}

func TestEmptyRepliesAreSentAgain(t *testing.T) {
	srv := mockllm.New(t).Script(
		mockllm.Turn{Blocks: []mockllm.Block{}},
		mockllm.Turn{Blocks: []mockllm.Block{}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("third time")}},
	)
	p := New(nil, Settings{})
	p.backoff = 0
	req := oneTurn("hi")
	req.Model = cliModel(srv.URL())
	evs, final := p.Stream(context.Background(), req).Collect()
	if final.Text() != "third time" || len(srv.Requests()) != 3 {
		t.Fatalf("final %q (%s) after %d requests", final.Text(), final.ErrorMessage, len(srv.Requests()))
	}
	starts := 0
	for _, ev := range evs {
		if ev.Type == ai.EventStart {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("%d start events", starts)
	}
	llmtest.CheckInvariants(t, evs, final)

	srv = mockllm.New(t).Script(mockllm.Turn{}, mockllm.Turn{}, mockllm.Turn{})
	req = oneTurn("hi")
	req.Model = cliModel(srv.URL())
	_, final = p.Stream(context.Background(), req).Collect()
	if !strings.Contains(final.ErrorMessage, "empty response three times") || len(srv.Requests()) != 3 {
		t.Errorf("error %q after %d requests", final.ErrorMessage, len(srv.Requests()))
	}
}

func TestMissingSignIn(t *testing.T) {
	req := oneTurn("hi")
	req.APIKey = ""
	req.Model = antigravityClaude("http://127.0.0.1:9")
	_, final := New(nil, Settings{}).Stream(context.Background(), req).Collect()
	if final.ErrorMessage != "google-antigravity needs a Google sign-in: run `gopi login google-antigravity` (or /login)" {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIGoogleGeminiCLI, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok {
		t.Errorf("registry built %T", p)
	}
	var qe *QuotaError
	if errors.As(quotaError(&ai.HTTPError{Status: 429, Message: "Quota exceeded"}), &qe) != true {
		t.Error("a quota 429 is not a QuotaError")
	}
}

func BenchmarkStream(b *testing.B) { llmtest.Bench(b, keyed{New(nil, Settings{})}, cliModel) }
