package websearch

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/golden"
)

// testNow is the clock of every test search (ages in the goldens).
var testNow = time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)

// seen is one request a provider double received.
type seen struct {
	Method, Path string
	Query        url.Values
	Header       http.Header
	Body         map[string]any
}

// double is a local server that answers like every provider: each
// provider's path returns its fixture from testdata (or what answer
// says), and the requests are recorded.
type double struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []seen
	answer func(w http.ResponseWriter, r *http.Request) bool // true: handled
}

// paths maps each provider's request path to its fixture.
var paths = map[string]ID{
	"/res/v1/web/search": Brave, "/search": Tavily, "/chat/completions": Perplexity, "/v1/messages": Anthropic,
	"/exa/search": Exa, "/v1beta/search": Parallel, "/api/v0/search": Kagi, "/searxng/search": SearXNG,
	"/coding/v1/search": Kimi, "/v2/search": Synthetic, "/api/mcp/web_search_prime/mcp": Zai, // zai.json and codex.json are server-sent events
	"/codex/responses": Codex,
}

func newDouble(t *testing.T) *double {
	d := &double{}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := seen{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone()}
		if data, _ := io.ReadAll(r.Body); len(data) > 0 {
			_ = json.Unmarshal(data, &s.Body)
		}
		d.mu.Lock()
		d.got = append(d.got, s)
		answer := d.answer
		d.mu.Unlock()
		if answer != nil && answer(w, r) {
			return
		}
		id, ok := paths[r.URL.Path]
		if strings.HasPrefix(r.URL.Path, "/jina/") {
			id, ok = Jina, true
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(filepath.Join("testdata", string(id)+".json"))
		if err != nil {
			t.Errorf("fixture: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-"+string(id))
		_, _ = w.Write(data)
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *double) last(t *testing.T) seen {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.got) == 0 {
		t.Fatal("the provider double got no request")
	}
	return d.got[len(d.got)-1]
}

// codexToken is a ChatGPT access token of account acct-1 (unsigned: only
// its payload is read).
const codexToken = "eyJhbGciOiJub25lIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdC0xIn19.c2ln"

// allKeys is a configuration with every provider set up.
func allKeys(base string) config.WebSearch {
	return config.WebSearch{Enabled: true, Preferred: "auto", Exa: "exa-key", Brave: "brave-key", Tavily: "tavily-key",
		Kagi: "kagi-key", Jina: "jina-key", Parallel: "parallel-key", Perplexity: "pplx-key",
		AnthropicKey: "sk-ant-api-key", AnthropicKeyVar: config.EnvAnthropicSearchAPIKey, AnthropicBaseURL: base,
		Kimi: "kimi-key", KimiKeyVar: config.EnvMoonshotSearchAPIKey, Synthetic: "synthetic-key", Zai: "zai-key", Codex: codexToken,
		SearXNG: config.SearXNG{Endpoint: base + "/searxng", Token: "sx-token", Categories: "general", Language: "en"}}
}

func (d *double) searcher(cfg config.WebSearch, tm Timeouts) *Searcher {
	base := d.srv.URL
	return New(cfg, Options{Now: func() time.Time { return testNow }, Timeouts: tm, BaseURLs: map[ID]string{
		Brave: base, Tavily: base, Perplexity: base, Jina: base + "/jina", Exa: base + "/exa", Parallel: base, Kagi: base, Kimi: base, Synthetic: base, Zai: base, Codex: base}})
}

// Each provider's request has its API's path, auth and parameters, and
// its answer renders as the golden text.
func TestProviders(t *testing.T) {
	d := newDouble(t)
	s := d.searcher(allKeys(d.srv.URL), Timeouts{})
	temp := 0.5
	cases := []struct {
		id     ID
		params Params
		check  func(t *testing.T, r seen)
	}{
		{Brave, Params{Query: "go generics", Limit: 3, Recency: "week"}, func(t *testing.T, r seen) {
			want(t, r.Method == "GET" && r.Header.Get("X-Subscription-Token") == "brave-key", r)
			want(t, r.Query.Get("q") == "go generics" && r.Query.Get("count") == "3" && r.Query.Get("freshness") == "pw" && r.Query.Get("extra_snippets") == "true", r)
		}},
		{Tavily, Params{Query: "go generics", Recency: "month"}, func(t *testing.T, r seen) {
			want(t, r.Method == "POST" && r.Header.Get("Authorization") == "Bearer tavily-key", r)
			want(t, r.Body["query"] == "go generics" && r.Body["max_results"] == 5.0 && r.Body["time_range"] == "month" &&
				r.Body["include_answer"] == "advanced" && r.Body["search_depth"] == "basic" && r.Body["topic"] == nil, r)
		}},
		{Perplexity, Params{Query: "go generics", Limit: 1, Recency: "day", Temperature: &temp}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("Authorization") == "Bearer pplx-key" && r.Body["model"] == "sonar-pro", r)
			want(t, r.Body["search_recency_filter"] == "day" && r.Body["temperature"] == 0.5 && r.Body["max_tokens"] == 8192.0 && r.Body["num_search_results"] == 10.0, r)
			msgs, _ := r.Body["messages"].([]any)
			want(t, len(msgs) == 2, r)
		}},
		{Jina, Params{Query: "go generics/1.18"}, func(t *testing.T, r seen) {
			want(t, r.Path == "/jina/go generics/1.18" || strings.HasPrefix(r.Path, "/jina/go generics"), r)
			want(t, r.Header.Get("Authorization") == "Bearer jina-key" && r.Header.Get("Accept") == "application/json", r)
		}},
		{Anthropic, Params{Query: "go generics"}, func(t *testing.T, r seen) {
			want(t, r.Query.Get("beta") == "true" && r.Header.Get("X-Api-Key") == "sk-ant-api-key" && r.Header.Get("Anthropic-Version") == "2023-06-01", r)
			want(t, strings.Contains(r.Header.Get("Anthropic-Beta"), "web-search-2025-03-05") && r.Body["model"] == "claude-haiku-4-5" && r.Body["max_tokens"] == 4096.0, r)
			tools, _ := r.Body["tools"].([]any)
			want(t, len(tools) == 1 && tools[0].(map[string]any)["type"] == "web_search_20250305", r)
		}},
		{Exa, Params{Query: "go generics"}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("X-Api-Key") == "exa-key" && r.Body["numResults"] == 10.0 && r.Body["type"] == "auto", r)
			want(t, r.Body["contents"].(map[string]any)["summary"].(map[string]any)["query"] == "go generics", r)
		}},
		{Parallel, Params{Query: "go generics"}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("X-Api-Key") == "parallel-key" && r.Header.Get("Parallel-Beta") == "search-extract-2025-10-10", r)
			want(t, r.Body["objective"] == "go generics" && r.Body["mode"] == "fast", r)
		}},
		{Kagi, Params{Query: "go generics", Limit: 100}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("Authorization") == "Bot kagi-key" && r.Query.Get("limit") == "40" && r.Query.Get("q") == "go generics", r)
		}},
		{Kimi, Params{Query: "go generics"}, func(t *testing.T, r seen) {
			want(t, r.Method == "POST" && r.Header.Get("Authorization") == "Bearer kimi-key", r)
			want(t, r.Body["text_query"] == "go generics" && r.Body["limit"] == 10.0 && r.Body["enable_page_crawling"] == false && r.Body["timeout_seconds"] == 30.0, r)
		}},
		{Synthetic, Params{Query: "go generics", Limit: 1}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("Authorization") == "Bearer synthetic-key" && r.Body["query"] == "go generics" && len(r.Body) == 1, r)
		}},
		{Zai, Params{Query: "go generics"}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("Authorization") == "Bearer zai-key" && r.Body["method"] == "tools/call" && r.Body["jsonrpc"] == "2.0", r)
			params, _ := r.Body["params"].(map[string]any)
			args, _ := params["arguments"].(map[string]any)
			want(t, params["name"] == "web_search_prime" && args["query"] == "go generics" && args["count"] == 10.0, r)
		}},
		{Codex, Params{Query: "go generics"}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("Authorization") == "Bearer "+codexToken && r.Header.Get("Chatgpt-Account-Id") == "acct-1" && r.Header.Get("Originator") == "pi", r)
			want(t, r.Body["model"] == "gpt-5-codex-mini" && r.Body["stream"] == true && r.Body["store"] == false, r)
			want(t, r.Body["tool_choice"].(map[string]any)["type"] == "web_search" && r.Body["tools"].([]any)[0].(map[string]any)["search_context_size"] == "high", r)
		}},
		{SearXNG, Params{Query: "go generics", Limit: 5, Recency: "week"}, func(t *testing.T, r seen) {
			want(t, r.Header.Get("Authorization") == "Bearer sx-token" && r.Query.Get("format") == "json" && r.Query.Get("time_range") == "month", r)
			want(t, r.Query.Get("pageno") == "1" && r.Query.Get("categories") == "general" && r.Query.Get("language") == "en", r)
		}},
	}
	for _, c := range cases {
		t.Run(string(c.id), func(t *testing.T) {
			r, err := s.Search(context.Background(), string(c.id), c.params)
			if err != nil {
				t.Fatal(err)
			}
			if r.Provider != c.id {
				t.Fatalf("answered by %s", r.Provider)
			}
			c.check(t, d.last(t))
			golden.Check(t, filepath.Join("testdata", string(c.id)+".golden"), Text(r)+"\n")
		})
	}
}

func want(t *testing.T, ok bool, r seen) {
	t.Helper()
	if !ok {
		t.Errorf("unexpected request: %s %s %v\nheaders %v\nbody %v", r.Method, r.Path, r.Query, r.Header, r.Body)
	}
}
