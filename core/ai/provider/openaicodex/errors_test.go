package openaicodex

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// clock is the fixed "now" of these tests.
var clock = time.Unix(1_800_000_000, 0)

func fixedProvider() *Provider {
	p := New(nil)
	p.now = func() time.Time { return clock }
	return p
}

func ask(p *Provider, m *ai.Model, token, session string) *ai.AssistantMessage {
	req := &ai.Request{Model: m, APIKey: token, SessionID: session, RequestID: "req_1",
		Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := p.Stream(context.Background(), req).Collect()
	return final
}

func TestUsageLimitIsNotRetried(t *testing.T) {
	resets := clock.Add(42 * time.Minute).Unix()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"PLUS","resets_at":` + strconv.FormatInt(resets, 10) + `}}`))
	}))
	defer srv.Close()
	final := ask(fixedProvider(), testModel(srv.URL), testToken, "")
	want := "ChatGPT usage limit reached (plus plan); it resets in about 42 min; wait, or sign in with another ChatGPT account: gopi login openai-codex"
	if final.StopReason != ai.StopReasonError || final.ErrorMessage != want {
		t.Fatalf("stop %s, error %q\nwant %q", final.StopReason, final.ErrorMessage, want)
	}
	if ai.IsRetryable(final) {
		t.Error("a spent usage limit is marked retryable")
	}
}

func TestRateLimitSaysWhenTheWindowResets(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Status: 429, ErrorMessage: "Rate limit reached", Headers: map[string]string{
		"x-codex-primary-used-percent":   "100",
		"x-codex-primary-window-minutes": "300",
		"x-codex-primary-reset-at":       strconv.FormatInt(clock.Add(5*time.Minute).Unix(), 10),
	}})
	final := ask(fixedProvider(), testModel(srv.URL()), testToken, "")
	if !strings.Contains(final.ErrorMessage, "ChatGPT rate limit exceeded (Rate limit reached); try again in about 5 min") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
	if !ai.IsRetryable(final) {
		t.Error("a rate limit must stay retryable")
	}
}

func TestRateWindows(t *testing.T) {
	h := http.Header{}
	if _, _, ok := RateWindows(h); ok {
		t.Error("no headers reported a window")
	}
	h.Set("x-codex-secondary-used-percent", "12.5")
	h.Set("x-codex-secondary-window-minutes", "10080")
	h.Set("x-codex-primary-used-percent", "NaN")
	p, s, ok := RateWindows(h)
	if !ok || p != (RateWindow{}) || s != (RateWindow{UsedPercent: 12.5, Minutes: 10080}) {
		t.Errorf("windows = %+v %+v %v", p, s, ok)
	}
}

func TestUnauthorizedSaysSignInAgain(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Status: 401, ErrorMessage: "token expired"})
	final := ask(fixedProvider(), testModel(srv.URL()), testToken, "")
	if !strings.HasSuffix(final.ErrorMessage, "token expired; sign in again: gopi login openai-codex") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

func TestNoRequestWithoutAUsableToken(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never")}})
	for token, want := range map[string]string{
		"":            "no ChatGPT sign-in",
		"sk-proj-abc": ErrNoAccountID.Error(),
	} {
		final := ask(fixedProvider(), testModel(srv.URL()), token, "")
		if final.StopReason != ai.StopReasonError || !strings.Contains(final.ErrorMessage, want) || !strings.Contains(final.ErrorMessage, "gopi login openai-codex") {
			t.Errorf("token %q: stop %s, error %q", token, final.StopReason, final.ErrorMessage)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent without a usable token", n)
	}
}

func TestSessionHeaders(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	m := testModel(srv.URL())
	m.Headers = map[string]string{"X-Extra": "1"}
	if final := ask(fixedProvider(), m, testToken, "sess-9"); final.StopReason != ai.StopReasonStop {
		t.Fatalf("stop %s: %s", final.StopReason, final.ErrorMessage)
	}
	r := srv.Requests()[0]
	for name, want := range map[string]string{
		"session_id": "sess-9", "conversation_id": "sess-9", "X-Client-Request-Id": "sess-9", "X-Extra": "1",
		"User-Agent": userAgent,
	} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if r.JSON()["prompt_cache_key"] != "sess-9" {
		t.Errorf("prompt_cache_key = %v", r.JSON()["prompt_cache_key"])
	}
}

func TestDetailShapeBecomesTheMessage(t *testing.T) {
	he := &ai.HTTPError{Status: 400, Message: `{"detail":"Unsupported model"}`, Body: []byte(`{"detail":"Unsupported model"}`)}
	if got := explainError(he, clock).Error(); got != "HTTP 400 Bad Request: Unsupported model" {
		t.Errorf("error = %q", got)
	}
}

func TestOtherErrorsPassThrough(t *testing.T) {
	plain := errors.New("dial tcp: refused")
	if explainError(plain, clock) != plain {
		t.Error("a non-HTTP error was changed")
	}
	he := &ai.HTTPError{Status: 500, Message: "boom", Body: []byte(`{"error":{"message":"boom"}}`)}
	if explainError(he, clock) != error(he) {
		t.Error("a 500 was changed")
	}
}

// FuzzExplainError: any error body and rate-limit header give an error,
// never a panic; a usage limit is reported on one line.
func FuzzExplainError(f *testing.F) {
	f.Add(429, []byte(`{"error":{"type":"usage_limit_reached","plan_type":"pro","resets_at":1800000600}}`), "1800000300")
	f.Add(429, []byte(`{"error":{"code":"rate_limit_exceeded","message":"slow"}}`), "")
	f.Add(401, []byte(`{"detail":"Unauthorized"}`), "x")
	f.Add(400, []byte(`{"detail":{"a":1}}`), "-5")
	f.Fuzz(func(t *testing.T, status int, body []byte, resetAt string) {
		h := http.Header{}
		h.Set("x-codex-primary-used-percent", "50")
		h.Set("x-codex-primary-reset-at", resetAt)
		he := &ai.HTTPError{Status: status, Message: "m", Body: body, Header: h}
		err := explainError(he, clock)
		var ul *UsageLimitError
		if err == nil || errors.As(err, &ul) && strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("explainError(%d, %q) = %v", status, body, err)
		}
	})
}
