package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// codeAssist is a scripted Cloud Code Assist: loadCodeAssist answers load
// (status loadStatus), onboardUser and the operation polls answer ops in
// order. It records each request body and the headers of the first.
type codeAssist struct {
	mu         sync.Mutex
	load       any
	loadStatus int
	ops        []map[string]any
	bodies     []map[string]any
	header     http.Header
}

func (ca *codeAssist) install(f *fakeAuth, token string) {
	record := func(r *http.Request) bool {
		ca.mu.Lock()
		defer ca.mu.Unlock()
		var b map[string]any
		_ = json.NewDecoder(r.Body).Decode(&b)
		ca.bodies = append(ca.bodies, b)
		if ca.header == nil {
			ca.header = r.Header.Clone()
		}
		return r.Header.Get("Authorization") == "Bearer "+token
	}
	next := func(w http.ResponseWriter) {
		ca.mu.Lock()
		op := ca.ops[0]
		if len(ca.ops) > 1 {
			ca.ops = ca.ops[1:]
		}
		ca.mu.Unlock()
		writeJSON(w, op)
	}
	f.handle("/v1internal:loadCodeAssist", func(w http.ResponseWriter, r *http.Request) {
		if !record(r) {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		if ca.loadStatus != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(ca.loadStatus)
			_ = json.NewEncoder(w).Encode(ca.load)
			return
		}
		writeJSON(w, ca.load)
	})
	f.handle("/v1internal:onboardUser", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		next(w)
	})
	f.handle("/v1internal/operations/op-1", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		next(w)
	})
	f.handle("/userinfo", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		writeJSON(w, map[string]string{"email": "g@example.com"})
	})
}

// pointGoogle aims g at f and steps its clock.
func pointGoogle(g *Google, f *fakeAuth, clk *steppedClock) {
	g.AuthorizeURL, g.TokenURL, g.UserInfoURL, g.CodeAssistURL = f.url("/authorize"), f.url("/token"), f.url("/userinfo"), f.srv.URL
	g.Callback.Port = 0
	g.now, g.sleep = fixedClock(), clk.sleep
}

func newTestGemini(t *testing.T, ca *codeAssist) (*GeminiCLI, *fakeAuth, *steppedClock) {
	f := newFakeAuth(t, geminiCLIClient.id)
	f.secret, f.pkce = geminiCLIClient.secret(), true
	ca.install(f, "access-2")
	p := NewGeminiCLI(f.srv.Client())
	clk := &steppedClock{t: testNow}
	pointGoogle(&p.Google, f, clk)
	return p, f, clk
}

func TestGeminiCLILoginExistingProject(t *testing.T) {
	ca := &codeAssist{load: map[string]any{"cloudaicompanionProject": "proj-1", "currentTier": map[string]any{"id": "standard-tier"}}}
	p, _, _ := newTestGemini(t, ca)
	ui := &scriptUI{browse: browser(t)}
	c, err := p.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	want := Credentials{Refresh: "refresh-2", Access: "access-2", Expires: testNow.Add(time.Hour - RefreshBuffer).UnixMilli(), ProjectID: "proj-1", Email: "g@example.com"}
	if c != want {
		t.Fatalf("credentials = %+v, want %+v", c, want)
	}
	u, _ := url.Parse(ui.auths[0].URL)
	q := u.Query()
	if q.Get("access_type") != "offline" || q.Get("prompt") != "consent" || !strings.Contains(q.Get("scope"), "cloud-platform") || !strings.HasSuffix(q.Get("redirect_uri"), "/oauth2callback") {
		t.Errorf("authorization URL %s lacks omp's parameters", u)
	}
	if ua := ca.header.Get("User-Agent"); !strings.HasPrefix(ua, "GeminiCLI/0.35.3/gemini-3.1-pro-preview (") || ca.header.Get("Client-Metadata") != geminiClientMetadata {
		t.Errorf("Code Assist headers: %v", ca.header)
	}
	if meta := ca.bodies[0]["metadata"].(map[string]any); meta["pluginType"] != "GEMINI" || meta["duetProject"] != nil {
		t.Errorf("loadCodeAssist body %v", ca.bodies[0])
	}
	var key map[string]any
	if err := json.Unmarshal([]byte(p.APIKey(c)), &key); err != nil || key["token"] != "access-2" || key["projectId"] != "proj-1" || key["refreshToken"] != "refresh-2" || key["email"] != "g@example.com" {
		t.Errorf("APIKey = %s", p.APIKey(c))
	}
	if !strings.HasPrefix(p.APIKey(c), `{"token":"access-2","projectId":"proj-1","refreshToken":`) {
		t.Errorf("APIKey key order = %s", p.APIKey(c))
	}
}

func TestGeminiCLIOnboardsFreeTier(t *testing.T) {
	ca := &codeAssist{
		load: map[string]any{"allowedTiers": []map[string]any{{"id": "legacy-tier"}, {"id": "free-tier", "isDefault": true}}},
		ops: []map[string]any{
			{"name": "operations/op-1", "done": false},
			{"name": "operations/op-1", "done": false},
			{"name": "operations/op-1", "done": true, "response": map[string]any{"cloudaicompanionProject": map[string]any{"id": "proj-free"}}},
		},
	}
	p, _, clk := newTestGemini(t, ca)
	c, err := p.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil {
		t.Fatal(err)
	}
	if c.ProjectID != "proj-free" {
		t.Fatalf("project = %q", c.ProjectID)
	}
	if onboard := ca.bodies[1]; onboard["tierId"] != "free-tier" || onboard["cloudaicompanionProject"] != nil {
		t.Errorf("onboard body %v", onboard)
	}
	if len(clk.waits) != 2 || clk.waits[0] != geminiOpWait {
		t.Errorf("waits = %v", clk.waits)
	}
}

func TestGeminiCLIPaidTierNeedsProject(t *testing.T) {
	ca := &codeAssist{load: map[string]any{"allowedTiers": []map[string]any{{"id": "standard-tier", "isDefault": true}}}}
	p, _, _ := newTestGemini(t, ca)
	_, err := p.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err == nil || !strings.Contains(err.Error(), "GOOGLE_CLOUD_PROJECT") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v", err)
	}

	ca2 := &codeAssist{
		load: map[string]any{"allowedTiers": []map[string]any{{"id": "standard-tier", "isDefault": true}}},
		ops:  []map[string]any{{"done": true, "response": map[string]any{}}},
	}
	p, _, _ = newTestGemini(t, ca2)
	p.Project = "my-proj"
	c, err := p.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil || c.ProjectID != "my-proj" {
		t.Fatalf("project %q, err %v", c.ProjectID, err)
	}
	onboard := ca2.bodies[1]
	if onboard["cloudaicompanionProject"] != "my-proj" || onboard["metadata"].(map[string]any)["duetProject"] != "my-proj" {
		t.Errorf("onboard body %v", onboard)
	}
	if ca2.bodies[0]["cloudaicompanionProject"] != "my-proj" {
		t.Errorf("load body %v", ca2.bodies[0])
	}
}

func TestGeminiCLISecurityPolicyMeansStandardTier(t *testing.T) {
	ca := &codeAssist{loadStatus: http.StatusForbidden, load: map[string]any{"error": map[string]any{"code": 403, "details": []map[string]any{{"reason": "SECURITY_POLICY_VIOLATED"}}}}}
	p, _, _ := newTestGemini(t, ca)
	p.Project = "vpc-proj"
	c, err := p.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil || c.ProjectID != "vpc-proj" {
		t.Fatalf("project %q, err %v", c.ProjectID, err)
	}
}

func TestGoogleRefresh(t *testing.T) {
	ca := &codeAssist{load: map[string]any{"cloudaicompanionProject": "proj-1", "currentTier": map[string]any{}}}
	p, f, _ := newTestGemini(t, ca)
	c, err := p.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := p.Refresh(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Refresh == c.Refresh || c2.ProjectID != "proj-1" || c2.Email != "g@example.com" {
		t.Fatalf("refresh = %+v", c2)
	}
	f.revokeAll()
	if _, err := p.Refresh(context.Background(), c2); !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "`gopi login google-gemini-cli`") {
		t.Fatalf("err = %v", err)
	}
	if _, err := p.Refresh(context.Background(), Credentials{Refresh: "x"}); !errors.Is(err, ErrLoginRequired) {
		t.Fatalf("no project: err = %v", err)
	}
}

func TestAntigravityLogin(t *testing.T) {
	f := newFakeAuth(t, antigravityClient.id)
	f.secret, f.pkce = antigravityClient.secret(), true
	ca := &codeAssist{
		load: map[string]any{"allowedTiers": []map[string]any{{"id": "free-tier", "isDefault": true}}},
		ops: []map[string]any{
			{"done": false},
			{"done": true, "response": map[string]any{"cloudaicompanionProject": "ag-proj"}},
		},
	}
	ca.install(f, "access-2")
	p := NewAntigravity(f.srv.Client())
	clk := &steppedClock{t: testNow}
	pointGoogle(&p.Google, f, clk)
	ui := &scriptUI{browse: browser(t)}
	c, err := p.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	if c.ProjectID != "ag-proj" || c.Email != "g@example.com" || c.Access != "access-2" {
		t.Fatalf("credentials = %+v", c)
	}
	if len(clk.waits) != 1 || clk.waits[0] != antigravityOpWait {
		t.Errorf("waits = %v", clk.waits)
	}
	if ua := ca.header.Get("User-Agent"); !strings.HasPrefix(ua, "antigravity/1.104.0 ") {
		t.Errorf("User-Agent %q", ua)
	}
	if meta := ca.bodies[0]["metadata"].(map[string]any); meta["ideType"] != "ANTIGRAVITY" {
		t.Errorf("load body %v", ca.bodies[0])
	}
	if onboard := ca.bodies[1]; onboard["tierId"] != "free-tier" {
		t.Errorf("onboard body %v", onboard)
	}
	u, _ := url.Parse(ui.auths[0].URL)
	if !strings.Contains(u.Query().Get("scope"), "experimentsandconfigs") {
		t.Errorf("scope %q", u.Query().Get("scope"))
	}
	if p.APIKey(c) != structuredKey(c) {
		t.Error("APIKey is not the structured key")
	}
}

func TestAntigravityExistingProjectObject(t *testing.T) {
	f := newFakeAuth(t, antigravityClient.id)
	f.secret = antigravityClient.secret()
	ca := &codeAssist{load: map[string]any{"cloudaicompanionProject": map[string]any{"id": "obj-proj"}}}
	ca.install(f, "access-2")
	p := NewAntigravity(f.srv.Client())
	pointGoogle(&p.Google, f, &steppedClock{t: testNow})
	c, err := p.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil || c.ProjectID != "obj-proj" {
		t.Fatalf("project %q, err %v", c.ProjectID, err)
	}
}
