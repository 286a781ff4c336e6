package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeGitHub is GitHub's device flow for one client: it hands out a device
// code and answers each poll from a script (authorization_pending,
// slow_down, …) before the token, or an error when the script says so.
type fakeGitHub struct {
	t       *testing.T
	srv     *httptest.Server
	script  []map[string]any // poll answers in order; the last repeats
	expires float64

	mu       sync.Mutex
	polls    int
	policies []string // model ids enabled, with their Authorization header
}

func newFakeGitHub(t *testing.T, script ...map[string]any) *fakeGitHub {
	g := &fakeGitHub{t: t, script: script, expires: 900}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login/device/code", func(w http.ResponseWriter, r *http.Request) {
		var b map[string]string
		_ = json.NewDecoder(r.Body).Decode(&b)
		if b["client_id"] != copilotClientID || b["scope"] != "read:user" || r.Header.Get("User-Agent") != copilotUserAgent || r.Header.Get("Accept") != "application/json" {
			http.Error(w, "bad device code request", http.StatusBadRequest)
			return
		}
		writeJSON(w, map[string]any{"device_code": "dev-1", "user_code": "ABCD-1234", "verification_uri": "https://github.com/login/device", "interval": 5, "expires_in": g.expires})
	})
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		var b map[string]string
		_ = json.NewDecoder(r.Body).Decode(&b)
		if b["client_id"] != copilotClientID || b["device_code"] != "dev-1" || b["grant_type"] != "urn:ietf:params:oauth:grant-type:device_code" {
			oauthFail(w, http.StatusBadRequest, "invalid_request", "bad poll")
			return
		}
		g.mu.Lock()
		a := g.script[min(g.polls, len(g.script)-1)]
		g.polls++
		g.mu.Unlock()
		writeJSON(w, a) // GitHub answers polls with 200, errors included
	})
	mux.HandleFunc("POST /models/{id}/policy", func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.policies = append(g.policies, r.PathValue("id")+" "+r.Header.Get("Authorization"))
		g.mu.Unlock()
		if r.PathValue("id") == "broken" {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		writeJSON(w, map[string]any{})
	})
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

// steppedClock is a clock that moves only when the code under test waits.
type steppedClock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

func (c *steppedClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *steppedClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.t = c.t.Add(d)
	return ctx.Err()
}

func newTestCopilot(t *testing.T, g *fakeGitHub) (*Copilot, *steppedClock, *[]string) {
	clk := &steppedClock{t: testNow}
	var domains []string
	p := NewCopilot(g.srv.Client())
	p.GitHubURL = func(domain string) string { domains = append(domains, domain); return g.srv.URL }
	p.APIURL = func(string) string { return g.srv.URL }
	p.now, p.sleep = clk.now, clk.sleep
	return p, clk, &domains
}

func answer(s string) func(context.Context, Prompt) (string, error) {
	return func(context.Context, Prompt) (string, error) { return s, nil }
}

func TestCopilotDeviceFlowWithSlowDown(t *testing.T) {
	g := newFakeGitHub(t,
		map[string]any{"error": "authorization_pending"},
		map[string]any{"error": "slow_down", "error_description": "too fast"},
		map[string]any{"error": "authorization_pending"},
		map[string]any{"error": "slow_down", "interval": 20},
		map[string]any{"access_token": "gho_token", "token_type": "bearer", "scope": "read:user"},
	)
	p, clk, domains := newTestCopilot(t, g)
	p.Models = []string{"gpt-4o", "claude-sonnet-4", "broken", "o3", "gpt-5", "gemini-2.5-pro"}
	ui := &scriptUI{prompt: answer("")}
	c, err := p.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	want := Credentials{Refresh: "gho_token", Access: "gho_token", Expires: clk.now().Add(copilotLifetime).UnixMilli()}
	if c != want {
		t.Fatalf("credentials = %+v, want %+v", c, want)
	}
	if !slices.Equal(*domains, []string{"github.com"}) {
		t.Errorf("device flow ran on %q", *domains)
	}
	if ui.auths[0].URL != "https://github.com/login/device" || ui.auths[0].Instructions != "Enter code: ABCD-1234" {
		t.Errorf("auth = %+v", ui.auths[0])
	}
	// 5 s × 1.2; after slow_down 10 s × 1.4 (twice); then the server's 20 s × 1.4.
	wantWaits := []time.Duration{6 * time.Second, 6 * time.Second, 14 * time.Second, 14 * time.Second, 28 * time.Second}
	if !slices.Equal(clk.waits, wantWaits) {
		t.Errorf("waits = %v, want %v", clk.waits, wantWaits)
	}
	if len(g.policies) != len(p.Models) || !strings.HasSuffix(g.policies[0], " Bearer gho_token") {
		t.Errorf("policies enabled: %q", g.policies)
	}
	if p.APIKey(c) != "gho_token" || p.BaseURL(c) != "" {
		t.Errorf("APIKey %q, BaseURL %q", p.APIKey(c), p.BaseURL(c))
	}
	r, err := p.Refresh(context.Background(), c)
	if err != nil || r.Access != "gho_token" || r.Refresh != "gho_token" || r.Expired(testNow.Add(24*time.Hour)) {
		t.Errorf("refresh = %+v, %v", r, err)
	}
}

func TestCopilotEnterprise(t *testing.T) {
	g := newFakeGitHub(t, map[string]any{"access_token": "ghu_ent"})
	p, _, domains := newTestCopilot(t, g)
	ui := &scriptUI{prompt: answer(" https://Company.GHE.com/some/path ")}
	c, err := p.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	if c.EnterpriseURL != "company.ghe.com" || !slices.Equal(*domains, []string{"company.ghe.com"}) {
		t.Fatalf("enterprise = %q, device flow on %q", c.EnterpriseURL, *domains)
	}
	p.APIURL = nil
	if got := p.BaseURL(c); got != "https://copilot-api.company.ghe.com" {
		t.Errorf("BaseURL = %q", got)
	}
	if got := p.BaseURL(Credentials{EnterpriseURL: "copilot-api.x.ghe.com"}); got != "https://copilot-api.x.ghe.com" {
		t.Errorf("BaseURL = %q", got)
	}
	if ui.prompts[0].Placeholder != "company.ghe.com" || !ui.prompts[0].AllowEmpty {
		t.Errorf("prompt = %+v", ui.prompts[0])
	}
}

func TestGitHubHost(t *testing.T) {
	for _, tc := range []struct {
		in, domain, enterprise string
		ok                     bool
	}{
		{"", "github.com", "", true},
		{"github.com", "github.com", "", true},
		{"https://API.GitHub.com/", "github.com", "", true},
		{"ghe.corp.io:8443", "ghe.corp.io", "ghe.corp.io", true},
		{"exa mple", "", "", false},
		{"https://", "", "", false},
	} {
		d, e, ok := githubHost(tc.in)
		if d != tc.domain || e != tc.enterprise || ok != tc.ok {
			t.Errorf("githubHost(%q) = %q, %q, %v", tc.in, d, e, ok)
		}
	}
}

func TestCopilotDeviceFlowErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script []map[string]any
		want   string
		relog  bool
	}{
		{"denied", []map[string]any{{"error": "access_denied", "error_description": "The user cancelled"}}, "access_denied: The user cancelled", true},
		{"expired", []map[string]any{{"error": "authorization_pending"}}, "the code expired", false},
		{"expired after slow_down", []map[string]any{{"error": "slow_down"}}, "clock that drifts", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newFakeGitHub(t, tc.script...)
			p, _, _ := newTestCopilot(t, g)
			_, err := p.Login(context.Background(), &scriptUI{prompt: answer("")})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "gopi login github-copilot") || errors.Is(err, ErrLoginRequired) != tc.relog {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestCopilotRejectsBadEnterpriseHost(t *testing.T) {
	g := newFakeGitHub(t, map[string]any{"access_token": "x"})
	p, _, domains := newTestCopilot(t, g)
	_, err := p.Login(context.Background(), &scriptUI{prompt: answer("not a host")})
	if err == nil || !strings.Contains(err.Error(), "not a GitHub Enterprise URL or domain") || len(*domains) != 0 {
		t.Fatalf("err = %v", err)
	}
}

func TestCopilotLoginCancelledWhilePolling(t *testing.T) {
	g := newFakeGitHub(t, map[string]any{"error": "authorization_pending"})
	p, _, _ := newTestCopilot(t, g)
	ctx, cancel := context.WithCancel(context.Background())
	p.sleep = func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }
	if _, err := p.Login(ctx, &scriptUI{prompt: answer("")}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// FuzzGitHubHost: any answer to the Enterprise prompt is read without
// panicking, and a host it accepts is lower case, has no path and is the
// Enterprise host unless it is github.com.
func FuzzGitHubHost(f *testing.F) {
	for _, s := range []string{"", "github.com", "https://Company.GHE.com/x", "ghe.corp.io:8443", "[::1]:80", "a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, e, ok := githubHost(in)
		if !ok {
			return
		}
		if d == "" || d != strings.ToLower(d) || strings.ContainsAny(d, "/?#") || (e != "" && e != d) || (e == "" && d != "github.com") {
			t.Fatalf("githubHost(%q) = %q, %q", in, d, e)
		}
	})
}
