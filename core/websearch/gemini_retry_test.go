package websearch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// renewingKeys is fakeKeys whose store can renew a sign-in: RenewKey
// records the stale key and hands out fresh.
type renewingKeys struct {
	fakeKeys
	fresh string
	mu    sync.Mutex
	stale []string
}

func (k *renewingKeys) RenewKey(_ context.Context, provider, stale string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.stale = append(k.stale, provider+" "+stale)
	return k.fresh, nil
}

// geminiScript is a Cloud Code Assist double answering its requests in
// turn with the scripted statuses (200 is the fixture stream), and the
// tokens the requests carried.
type geminiScript struct {
	srv    *httptest.Server
	mu     sync.Mutex
	steps  []func(w http.ResponseWriter)
	tokens []string
}

func newGeminiScript(t *testing.T, steps ...func(w http.ResponseWriter)) *geminiScript {
	data, err := os.ReadFile(filepath.Join("testdata", "gemini.sse"))
	if err != nil {
		t.Fatal(err)
	}
	g := &geminiScript{steps: steps}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.tokens = append(g.tokens, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		var step func(http.ResponseWriter)
		if len(g.steps) > 0 {
			step, g.steps = g.steps[0], g.steps[1:]
		}
		g.mu.Unlock()
		if step == nil {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(data)
			return
		}
		step(w)
	}))
	t.Cleanup(g.srv.Close)
	return g
}

// status answers code with body and the headers given as name, value.
func status(code int, body string, header ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	}
}

// geminiRetrySearch searches Gemini at base with keys and returns the
// error and the waits taken (not slept).
func geminiRetrySearch(t *testing.T, base string, keys Keys) (error, []time.Duration) {
	t.Helper()
	s := New(config.WebSearch{Enabled: true}, Options{Keys: keys, BaseURLs: map[ID]string{Gemini: base}})
	var waits []time.Duration
	s.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	_, err := s.Search(context.Background(), "gemini", Params{Query: "q"})
	return err, waits
}

// Gemini search retries as omp: 429 after the wait it asks for plus a
// second, 5xx after 1, 2, 4 s, at most three times; a 429 asking for more
// than the five-minute budget is not waited for; other failures are not
// retried.
func TestGeminiRetries(t *testing.T) {
	keys := fakeKeys{"google-gemini-cli": googleLogin}
	cases := []struct {
		name     string
		steps    []func(http.ResponseWriter)
		requests int
		waits    []time.Duration
		err      string
	}{
		{"429 with Retry-After then 503 then ok", []func(http.ResponseWriter){
			status(429, `{"error":{"message":"slow down"}}`, "Retry-After", "2"), status(503, "busy")},
			3, []time.Duration{3 * time.Second, 2 * time.Second}, ""},
		{"429 with a hint in the body", []func(http.ResponseWriter){
			status(429, `{"error":{"message":"Your quota will reset after 1m30s."}}`)},
			2, []time.Duration{91 * time.Second}, ""},
		{"5xx every time", []func(http.ResponseWriter){
			status(500, "a"), status(502, "b"), status(504, "c"), status(500, `{"error":{"message":"still down"}}`)},
			4, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, "Gemini API error (500): still down; the provider failed, retry later."},
		{"429 over the budget", []func(http.ResponseWriter){
			status(429, `{"error":{"message":"quota"}}`, "Retry-After", "400")},
			1, nil, "Gemini API error (429): quota; rate limited, retry after 6m40s."},
		{"two 429s over the budget together", []func(http.ResponseWriter){
			status(429, "q", "Retry-After", "200"), status(429, "q", "Retry-After", "200")},
			2, []time.Duration{201 * time.Second}, "Gemini API error (429): q; rate limited, retry after 3m20s."},
		{"400 is not retried", []func(http.ResponseWriter){status(400, `{"error":{"message":"bad request"}}`)},
			1, nil, "Gemini API error (400): bad request"},
		{"401 without a store that renews", []func(http.ResponseWriter){status(401, "no")},
			1, nil, "Gemini authorization failed (401)."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGeminiScript(t, c.steps...)
			err, waits := geminiRetrySearch(t, g.srv.URL, keys)
			if (err == nil) != (c.err == "") || (err != nil && !strings.HasPrefix(err.Error(), c.err)) {
				t.Fatalf("error %v, want %q", err, c.err)
			}
			if len(g.tokens) != c.requests || !slices.Equal(waits, c.waits) {
				t.Fatalf("%d requests, waits %v; want %d, %v", len(g.tokens), waits, c.requests, c.waits)
			}
		})
	}

	// A connection refused is tried again too, then reported.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	err, waits := geminiRetrySearch(t, "http://"+addr, keys)
	if err == nil || !strings.HasPrefix(err.Error(), "Gemini request failed:") || !slices.Equal(waits, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}) {
		t.Fatalf("refused: %v, waits %v", err, waits)
	}
}

// A token Gemini refuses (401, 403, or a 400 calling it invalid) is
// renewed through the credential store once and the request sent again
// with the new token; a second refusal is the error.
func TestGeminiRenewsARefusedToken(t *testing.T) {
	fresh := strings.Replace(googleLogin, "ya29.tok", "ya29.new", 1)
	for _, refusal := range []func(http.ResponseWriter){
		status(401, "expired"), status(403, "denied"), status(400, `{"error":{"message":"API key not valid. Please pass a valid API key."}}`),
	} {
		keys := &renewingKeys{fakeKeys: fakeKeys{"google-gemini-cli": googleLogin}, fresh: fresh}
		g := newGeminiScript(t, refusal)
		if err, _ := geminiRetrySearch(t, g.srv.URL, keys); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.tokens, []string{"ya29.tok", "ya29.new"}) || !slices.Equal(keys.stale, []string{"google-gemini-cli " + googleLogin}) {
			t.Fatalf("tokens %v, renewed %v", g.tokens, keys.stale)
		}
	}
	keys := &renewingKeys{fakeKeys: fakeKeys{"google-gemini-cli": googleLogin}, fresh: fresh}
	g := newGeminiScript(t, status(401, "no"), status(401, "still no"))
	err, _ := geminiRetrySearch(t, g.srv.URL, keys)
	if err == nil || !strings.HasPrefix(err.Error(), "Gemini authorization failed (401).") || len(g.tokens) != 2 || len(keys.stale) != 1 {
		t.Fatalf("%v; tokens %v, renewed %v", err, g.tokens, keys.stale)
	}
}
