package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fakeAuth is a local OAuth 2.0 server for one client: an authorization
// endpoint that redirects with a code (recording the PKCE challenge, state
// and redirect URI), and a token endpoint that checks them (RFC 6749 §4.1,
// RFC 7636) and issues and rotates refresh tokens (each refresh token works
// once).
type fakeAuth struct {
	t        *testing.T
	srv      *httptest.Server
	clientID string
	secret   string // client_secret the token endpoint requires, if any
	jsonBody bool   // the token endpoint takes JSON (Anthropic) instead of a form
	pkce     bool   // the authorization request must carry an S256 challenge
	checkSt  bool   // the token request must repeat the state (Anthropic)
	access   func(n int) string
	answer   map[string]any // more fields for every token answer

	mu       sync.Mutex
	codes    map[string]authzRequest
	refresh  map[string]bool // refresh token → still valid
	n        int
	handlers map[string]http.HandlerFunc // more endpoints (userinfo, Code Assist)
}

// authzRequest is what an authorization request asked for.
type authzRequest struct {
	challenge, redirect, state string
}

func newFakeAuth(t *testing.T, clientID string) *fakeAuth {
	f := &fakeAuth{t: t, clientID: clientID, codes: map[string]authzRequest{}, refresh: map[string]bool{}, handlers: map[string]http.HandlerFunc{}}
	f.access = func(n int) string { return fmt.Sprintf("access-%d", n) }
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAuth) url(path string) string { return f.srv.URL + path }

func (f *fakeAuth) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/authorize":
		f.authorize(w, r)
	case "/token":
		f.token(w, r)
	default:
		f.mu.Lock()
		h := f.handlers[r.URL.Path]
		f.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}
}

func (f *fakeAuth) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch {
	case q.Get("client_id") != f.clientID:
		http.Error(w, "unknown client", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code":
		http.Error(w, "response_type must be code", http.StatusBadRequest)
		return
	case !strings.HasPrefix(q.Get("redirect_uri"), "http://localhost:"):
		http.Error(w, "redirect_uri must be a localhost URL", http.StatusBadRequest)
		return
	case f.pkce && (q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == ""):
		http.Error(w, "PKCE S256 challenge required", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.n++
	code := fmt.Sprintf("code-%d", f.n)
	f.codes[code] = authzRequest{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), state: q.Get("state")}
	f.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (f *fakeAuth) token(w http.ResponseWriter, r *http.Request) {
	p := map[string]string{}
	if f.jsonBody {
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			oauthFail(w, http.StatusBadRequest, "invalid_request", "body is not JSON")
			return
		}
	} else {
		if err := r.ParseForm(); err != nil || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			oauthFail(w, http.StatusBadRequest, "invalid_request", "body is not a form")
			return
		}
		for k := range r.PostForm {
			p[k] = r.PostForm.Get(k)
		}
	}
	if p["client_id"] != f.clientID || f.secret != "" && p["client_secret"] != f.secret {
		oauthFail(w, http.StatusUnauthorized, "invalid_client", "unknown client")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch p["grant_type"] {
	case "authorization_code":
		req, ok := f.codes[p["code"]]
		delete(f.codes, p["code"])
		switch {
		case !ok:
			oauthFail(w, http.StatusBadRequest, "invalid_grant", "unknown or used code")
			return
		case p["redirect_uri"] != req.redirect:
			oauthFail(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request")
			return
		case f.pkce && challengeOf(p["code_verifier"]) != req.challenge:
			oauthFail(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the challenge")
			return
		case f.checkSt && p["state"] != req.state:
			oauthFail(w, http.StatusBadRequest, "invalid_grant", "state differs")
			return
		}
	case "refresh_token":
		if !f.refresh[p["refresh_token"]] {
			oauthFail(w, http.StatusBadRequest, "invalid_grant", "Refresh token revoked")
			return
		}
		f.refresh[p["refresh_token"]] = false
	default:
		oauthFail(w, http.StatusBadRequest, "unsupported_grant_type", p["grant_type"])
		return
	}
	f.n++
	rt := fmt.Sprintf("refresh-%d", f.n)
	f.refresh[rt] = true
	ans := map[string]any{"access_token": f.access(f.n), "refresh_token": rt, "expires_in": 3600, "token_type": "Bearer"}
	for k, v := range f.answer {
		ans[k] = v
	}
	writeJSON(w, ans)
}

// revokeAll makes every refresh token invalid, as a revoked grant.
func (f *fakeAuth) revokeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.refresh)
}

func (f *fakeAuth) handle(path string, h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers[path] = h
}

func oauthFail(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// scriptUI is a front end run by the test: Auth "opens" the URL with
// browse, Prompt answers with prompt (or waits for the sign-in to end).
type scriptUI struct {
	browse func(AuthInfo)
	prompt func(ctx context.Context, p Prompt) (string, error)

	mu       sync.Mutex
	auths    []AuthInfo
	progress []string
	prompts  []Prompt
}

func (u *scriptUI) Auth(a AuthInfo) {
	u.mu.Lock()
	u.auths = append(u.auths, a)
	u.mu.Unlock()
	if u.browse != nil {
		u.browse(a)
	}
}

func (u *scriptUI) Progress(m string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.progress = append(u.progress, m)
}

func (u *scriptUI) Prompt(ctx context.Context, p Prompt) (string, error) {
	u.mu.Lock()
	u.prompts = append(u.prompts, p)
	u.mu.Unlock()
	if u.prompt != nil {
		return u.prompt(ctx, p)
	}
	<-ctx.Done()
	return "", ctx.Err()
}

// browser follows the authorization URL and its redirect to the local
// callback, as a browser on this machine would.
func browser(t *testing.T) func(AuthInfo) {
	return func(a AuthInfo) {
		resp, err := http.Get(a.URL)
		if err != nil {
			t.Errorf("browser: %v", err)
			return
		}
		resp.Body.Close()
	}
}

// redirectOf asks the authorization URL for its redirect without following
// it: what a user on another machine copies from the address bar.
func redirectOf(t *testing.T, authURL string) string {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatalf("authorize: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: status %d", resp.StatusCode)
	}
	return resp.Header.Get("Location")
}

// occupyPort holds a loopback port for the test and returns it.
func occupyPort(t *testing.T) int {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	return busy.Addr().(*net.TCPAddr).Port
}
