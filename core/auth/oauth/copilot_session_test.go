package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeExchange is GitHub's copilot_internal/v2/token: for a known GitHub
// token it issues a numbered session token that lives `life` by the shared
// clock (with `refreshIn` as GitHub's hint), and answers unknown tokens
// with `refuse` (401 by default).
type fakeExchange struct {
	srv       *httptest.Server
	clk       *steppedClock
	life      time.Duration
	refreshIn int64
	api       string
	refuse    int

	mu     sync.Mutex
	issued []time.Time // expiry of each session token issued, by number
	calls  int
}

func newFakeExchange(t *testing.T, clk *steppedClock) *fakeExchange {
	x := &fakeExchange{clk: clk, life: 30 * time.Minute, refreshIn: 1500, refuse: http.StatusUnauthorized}
	x.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x.mu.Lock()
		defer x.mu.Unlock()
		x.calls++
		if r.Method != http.MethodGet || r.URL.Path != "/copilot_internal/v2/token" || r.Header.Get("Accept") != "application/json" {
			http.Error(w, "bad exchange request", http.StatusBadRequest)
			return
		}
		if r.Header.Get("Authorization") != "token gho_live" {
			w.WriteHeader(x.refuse)
			fmt.Fprint(w, `{"message":"Bad credentials"}`)
			return
		}
		exp := x.clk.now().Add(x.life)
		x.issued = append(x.issued, exp)
		api := x.api
		if api == "" {
			api = "https://" + r.Host
		}
		writeJSON(w, map[string]any{"token": fmt.Sprintf("tid=%d;exp=%d", len(x.issued)-1, exp.Unix()), "expires_at": exp.Unix(), "refresh_in": x.refreshIn, "endpoints": map[string]any{"api": api}})
	}))
	t.Cleanup(x.srv.Close)
	return x
}

// expiryOf is the expiry the fake gave the session token key.
func (x *fakeExchange) expiryOf(t *testing.T, key string) time.Time {
	var n int
	if _, err := fmt.Sscanf(key, "tid=%d;", &n); err != nil {
		t.Fatalf("not a session token: %q", key)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.issued[n]
}

func newSessionCopilot(x *fakeExchange) *Copilot {
	p := NewCopilot(x.srv.Client())
	p.now = x.clk.now
	p.TokenURL = func(string) string { return x.srv.URL + "/copilot_internal/v2/token" }
	p.APIURL = func(e string) string { return "https://copilot-api." + e }
	return p
}

// TestCopilotSessionTokenIsRenewedBeforeItLapses walks a clock through
// three hours of requests a minute apart: every key handed out is a
// session token with more than RefreshBuffer of life left, the API root is
// the one the exchange named, and a token is reused until GitHub's
// refresh_in or its expiry less the buffer, whichever comes first.
func TestCopilotSessionTokenIsRenewedBeforeItLapses(t *testing.T) {
	for _, tc := range []struct {
		name      string
		refreshIn int64
		life      time.Duration
		want      int // exchanges over 180 requests
	}{
		{"refresh_in sooner", 1500, 30 * time.Minute, 8},     // every 25 min
		{"expiry sooner", 0, 20 * time.Minute, 12},           // every 15 min
		{"refresh_in later", 3600, 30 * time.Minute, 8},      // the buffer wins
		{"shorter than the buffer", 0, 4 * time.Minute, 180}, // never kept
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &steppedClock{t: testNow}
			x := newFakeExchange(t, clk)
			x.refreshIn, x.life = tc.refreshIn, tc.life
			p := newSessionCopilot(x)
			c := Credentials{Access: "gho_live", Refresh: "gho_live", Expires: clk.now().Add(copilotLifetime).UnixMilli()}
			for i := 0; i < 180; i++ {
				key, base, err := p.SessionKey(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				if base != x.srv.URL {
					t.Fatalf("base URL %q, want the exchange's %q", base, x.srv.URL)
				}
				left := x.expiryOf(t, key).Sub(clk.now())
				if left <= 0 || (tc.life > RefreshBuffer && left <= RefreshBuffer) {
					t.Fatalf("request %d got a session token with %v left", i, left)
				}
				clk.sleep(context.Background(), time.Minute)
			}
			if x.calls != tc.want {
				t.Errorf("%d exchanges, want %d", x.calls, tc.want)
			}
		})
	}
}

// TestCopilotSessionFallsBackToTheGitHubToken: where GitHub does not offer
// the exchange (a 404 or 403 for this token, a 5xx, an answer without a
// token, a transport failure), requests carry the GitHub token as omp
// 14.9.9 sends it, and the exchange is tried again an hour later; a 401
// is a sign-in GitHub no longer accepts.
func TestCopilotSessionFallsBackToTheGitHubToken(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusForbidden, http.StatusBadGateway} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			clk := &steppedClock{t: testNow}
			x := newFakeExchange(t, clk)
			x.refuse = status
			p := newSessionCopilot(x)
			c := Credentials{Access: "ghp_personal", Refresh: "ghp_personal", EnterpriseURL: "corp.example"}
			for range 3 {
				key, base, err := p.SessionKey(context.Background(), c)
				if err != nil || key != "ghp_personal" || base != "https://copilot-api.corp.example" {
					t.Fatalf("key %q base %q err %v", key, base, err)
				}
			}
			clk.sleep(context.Background(), directRetry)
			p.SessionKey(context.Background(), c)
			if x.calls != 2 {
				t.Errorf("%d exchanges, want 2 (one, then one after %v)", x.calls, directRetry)
			}
		})
	}
	t.Run("transport", func(t *testing.T) {
		clk := &steppedClock{t: testNow}
		x := newFakeExchange(t, clk)
		p := newSessionCopilot(x)
		x.srv.Close()
		key, base, err := p.SessionKey(context.Background(), Credentials{Access: "gho_live"})
		if err != nil || key != "gho_live" || base != "" {
			t.Fatalf("key %q base %q err %v", key, base, err)
		}
	})
	t.Run("no answer", func(t *testing.T) {
		hang := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		defer hang.Close()
		p := NewCopilot(hang.Client())
		p.Timeout = 50 * time.Millisecond
		p.TokenURL = func(string) string { return hang.URL }
		key, _, err := p.SessionKey(context.Background(), Credentials{Access: "gho_live"})
		if err != nil || key != "gho_live" {
			t.Fatalf("key %q err %v", key, err)
		}
	})
	t.Run("401", func(t *testing.T) {
		clk := &steppedClock{t: testNow}
		x := newFakeExchange(t, clk)
		p := newSessionCopilot(x)
		_, _, err := p.SessionKey(context.Background(), Credentials{Access: "gho_revoked"})
		if !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "gopi login github-copilot") || strings.Contains(err.Error(), "gho_revoked") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestCopilotSessionAPIRoot keeps only an https API root from the answer.
func TestCopilotSessionAPIRoot(t *testing.T) {
	for _, api := range []string{"http://plain.example", "https://user:pw@evil.example", "not a url", ""} {
		clk := &steppedClock{t: testNow}
		x := newFakeExchange(t, clk)
		x.api = api
		if api == "" {
			x.api = " "
		}
		p := newSessionCopilot(x)
		key, base, err := p.SessionKey(context.Background(), Credentials{Access: "gho_live"})
		if err != nil || !strings.HasPrefix(key, "tid=") || base != "" {
			t.Errorf("api %q: key %q base %q err %v", api, key, base, err)
		}
	}
}

// TestCopilotSessionWaitHonoursContext: a caller waiting for another's
// exchange gives up with its context.
func TestCopilotSessionWaitHonoursContext(t *testing.T) {
	clk := &steppedClock{t: testNow}
	x := newFakeExchange(t, clk)
	p := newSessionCopilot(x)
	if err := p.sessions.take(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer p.sessions.give()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.SessionKey(ctx, Credentials{Access: "gho_live"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestCopilotTokenURL(t *testing.T) {
	p := NewCopilot(nil)
	for enterprise, want := range map[string]string{
		"":                "https://api.github.com/copilot_internal/v2/token",
		"company.ghe.com": "https://api.company.ghe.com/copilot_internal/v2/token",
	} {
		if got := p.tokenURL(enterprise); got != want {
			t.Errorf("tokenURL(%q) = %q, want %q", enterprise, got, want)
		}
	}
}
