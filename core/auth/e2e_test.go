package auth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// oauthAPI is a local double of a subscription API: a token endpoint that
// issues short-lived access tokens and rotates refresh tokens, and the
// Anthropic Messages endpoint, which refuses a token that is unknown or
// expired by the shared clock (and counts such requests).
type oauthAPI struct {
	mu       sync.Mutex
	now      time.Time
	access   map[string]time.Time // access token → expiry
	refresh  map[string]bool      // live refresh tokens
	issued   int
	refused  []string
	messages int
	llm      *mockllm.Server
}

func (a *oauthAPI) clock() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.now
}

func (a *oauthAPI) advance(d time.Duration) {
	a.mu.Lock()
	a.now = a.now.Add(d)
	a.mu.Unlock()
}

func (a *oauthAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/token" {
		a.token(w, r)
		return
	}
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	a.mu.Lock()
	exp, ok := a.access[tok]
	live := ok && a.now.Before(exp)
	if !live {
		a.refused = append(a.refused, tok)
	}
	a.messages++
	a.mu.Unlock()
	if !live {
		http.Error(w, `{"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired"}}`, http.StatusUnauthorized)
		return
	}
	a.llm.ServeHTTP(w, r)
}

// token is the refresh_token grant: the old refresh token dies, a new pair
// is issued, valid for an hour.
func (a *oauthAPI) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	a.mu.Lock()
	defer a.mu.Unlock()
	rt := r.Form.Get("refresh_token")
	if r.Form.Get("grant_type") != "refresh_token" || !a.refresh[rt] {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"invalid_grant"}`)
		return
	}
	delete(a.refresh, rt)
	a.issued++
	access, next := fmt.Sprintf("sk-ant-oat01-%d", a.issued), fmt.Sprintf("sk-ant-ort01-%d", a.issued)
	a.access[access] = a.now.Add(time.Hour)
	a.refresh[next] = true
	json.NewEncoder(w).Encode(map[string]any{"access_token": access, "refresh_token": next, "expires_in": 3600})
}

// tokenClient is the fake sign-in flow: its refresh talks to the token
// endpoint over HTTP; requests go to the API's own host (BaseURL).
type tokenClient struct {
	api  *oauthAPI
	url  string
	http *http.Client
}

func (p *tokenClient) ID() string   { return "anthropic" }
func (p *tokenClient) Name() string { return "Anthropic (test double)" }
func (p *tokenClient) Login(context.Context, oauth.UI) (oauth.Credentials, error) {
	return oauth.Credentials{}, fmt.Errorf("not in this test")
}
func (p *tokenClient) APIKey(c oauth.Credentials) string  { return c.Access }
func (p *tokenClient) BaseURL(c oauth.Credentials) string { return p.url }
func (p *tokenClient) Refresh(ctx context.Context, c oauth.Credentials) (oauth.Credentials, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url+"/token", strings.NewReader(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {c.Refresh}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := p.http.Do(req)
	if err != nil {
		return oauth.Credentials{}, err
	}
	defer resp.Body.Close()
	var body struct {
		Access    string `json:"access_token"`
		Refresh   string `json:"refresh_token"`
		ExpiresIn int64  `json:"expires_in"`
		Error     string `json:"error"`
	}
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusOK {
		return oauth.Credentials{}, fmt.Errorf("token refresh failed (%d): %s", resp.StatusCode, body.Error)
	}
	return oauth.Credentials{Access: body.Access, Refresh: body.Refresh, Expires: p.api.clock().Add(time.Duration(body.ExpiresIn) * time.Second).UnixMilli()}, nil
}

// TestNoRequestLeavesWithAnExpiredToken drives the registry with a stored
// sign-in through the life of its tokens: used while valid, refreshed
// once its expiry is within the 5-minute buffer (once for a burst of
// concurrent requests), and the server never sees an expired token.
func TestNoRequestLeavesWithAnExpiredToken(t *testing.T) {
	api := &oauthAPI{now: time.UnixMilli(1_800_000_000_000), access: map[string]time.Time{}, refresh: map[string]bool{"sk-ant-ort01-0": true}, llm: mockllm.NewHandler()}
	turns := make([]mockllm.Turn, 20)
	for i := range turns {
		turns[i] = mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}}
	}
	api.llm.Script(turns...)
	api.access["sk-ant-oat01-0"] = api.now.Add(10 * time.Minute)
	srv := httptest.NewServer(api)
	defer srv.Close()

	flow := &tokenClient{api: api, url: srv.URL, http: srv.Client()}
	store := auth.New(auth.Options{Path: filepath.Join(t.TempDir(), auth.DBFile), Providers: auth.Lookup([]oauth.Provider{flow}), Now: api.clock})
	ctx := context.Background()
	if err := store.Save(ctx, "anthropic", auth.OAuth(oauth.Credentials{Access: "sk-ant-oat01-0", Refresh: "sk-ant-ort01-0", Expires: api.now.Add(10 * time.Minute).UnixMilli(), Email: "me@example.com"}), false); err != nil {
		t.Fatal(err)
	}
	reg, err := models.Load(models.Options{NoFiles: true, Getenv: func(string) string { return "" }, Credentials: store})
	if err != nil {
		t.Fatal(err)
	}
	model, err := reg.Find("anthropic/claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	ask := func() error {
		req := &ai.Request{Model: model, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		msg := reg.Stream(ctx, req, srv.Client()).Result(ctx)
		if msg.StopReason != ai.StopReasonStop {
			return fmt.Errorf("stop %q: %s", msg.StopReason, msg.ErrorMessage)
		}
		return nil
	}
	// Valid for 10 more minutes: used as it is.
	if err := ask(); err != nil {
		t.Fatal(err)
	}
	// 4 minutes left, inside the buffer: refreshed before the request.
	api.advance(6 * time.Minute)
	if err := ask(); err != nil {
		t.Fatal(err)
	}
	// Long past expiry, with a burst of requests: one refresh serves all.
	api.advance(2 * time.Hour)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- ask()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	api.mu.Lock()
	defer api.mu.Unlock()
	if len(api.refused) > 0 || api.issued != 2 || api.messages != 10 {
		t.Fatalf("refused %v, %d refreshes, %d requests", api.refused, api.issued, api.messages)
	}
}

// TestCopilotRequestsCarryTheSessionToken: a Copilot sign-in stored the
// way omp stores it (the GitHub token, a far expiry) is traded for a
// session token through GitHub's exchange, and the model's requests go to
// the API root the exchange names with that token, one exchange serving
// several requests; the stored row is left as omp wrote it.
func TestCopilotRequestsCarryTheSessionToken(t *testing.T) {
	llm := mockllm.NewHandler()
	llm.Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("one")}}, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("two")}})
	var mu sync.Mutex
	var exchanges int
	var carried []string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /copilot_internal/v2/token", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("Authorization") != "token gho_from_omp" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		exchanges++
		json.NewEncoder(w).Encode(map[string]any{"token": fmt.Sprintf("tid=session-%d", exchanges), "expires_at": time.Now().Add(30 * time.Minute).Unix(), "refresh_in": 1500, "endpoints": map[string]any{"api": "https://" + r.Host + "/individual"}})
	})
	mux.HandleFunc("/individual/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		carried = append(carried, r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		http.StripPrefix("/individual", llm).ServeHTTP(w, r)
	})
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()

	copilot := oauth.NewCopilot(srv.Client())
	copilot.TokenURL = func(string) string { return srv.URL + "/copilot_internal/v2/token" }
	store := auth.New(auth.Options{Path: filepath.Join(t.TempDir(), auth.DBFile), Providers: auth.Lookup([]oauth.Provider{copilot})})
	ctx := context.Background()
	stored := oauth.Credentials{Access: "gho_from_omp", Refresh: "gho_from_omp", Expires: time.Now().AddDate(10, 0, 0).UnixMilli()}
	if err := store.Save(ctx, "github-copilot", auth.OAuth(stored), false); err != nil {
		t.Fatal(err)
	}
	reg, err := models.Load(models.Options{NoFiles: true, Getenv: func(string) string { return "" }, Credentials: store})
	if err != nil {
		t.Fatal(err)
	}
	model, err := reg.Find("github-copilot/gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"one", "two"} {
		req := &ai.Request{Model: model, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		msg := reg.Stream(ctx, req, srv.Client()).Result(ctx)
		if msg.StopReason != ai.StopReasonStop || msg.Text() != want {
			t.Fatalf("stop %q (%s): %q", msg.StopReason, msg.ErrorMessage, msg.Text())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if exchanges != 1 || len(carried) != 2 {
		t.Fatalf("%d exchanges; requests %q", exchanges, carried)
	}
	for _, c := range carried {
		if !strings.HasSuffix(c, " Bearer tid=session-1") {
			t.Errorf("request %q does not carry the session token", c)
		}
	}
	rows, err := store.Status(ctx)
	if err != nil || len(rows) != 1 || rows[0].Fingerprint != auth.Fingerprint("gho_from_omp") || rows[0].Expires.UnixMilli() != stored.Expires {
		t.Fatalf("stored rows after use: %+v, %v", rows, err)
	}
}
