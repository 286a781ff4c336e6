package websearch

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// only returns a configuration with just the given providers.
func only(base string, ids ...ID) config.WebSearch {
	all := allKeys(base)
	c := config.WebSearch{Enabled: true, Preferred: "auto"}
	for _, id := range ids {
		switch id {
		case Brave:
			c.Brave = all.Brave
		case Tavily:
			c.Tavily = all.Tavily
		case Kagi:
			c.Kagi = all.Kagi
		case Exa:
			c.Exa = all.Exa
		case SearXNG:
			c.SearXNG = all.SearXNG
		case Anthropic:
			c.AnthropicKey, c.AnthropicKeyVar, c.AnthropicBaseURL = all.AnthropicKey, all.AnthropicKeyVar, all.AnthropicBaseURL
		}
	}
	return c
}

// Each failure of a single provider is one line naming it and what to do.
func TestProviderErrors(t *testing.T) {
	cases := []struct {
		name   string
		id     ID
		status int
		header map[string]string
		body   string
		want   string
	}{
		{"401 names the key", Brave, 401, nil, `{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"The provided subscription token is invalid."}}`,
			"Brave authorization failed (401). Check BRAVE_API_KEY."},
		{"403 anthropic search key", Anthropic, 403, nil, `{"type":"error","error":{"type":"permission_error","message":"nope"}}`,
			"Anthropic authorization failed (403). Check ANTHROPIC_SEARCH_API_KEY."},
		{"429 with Retry-After", Tavily, 429, map[string]string{"Retry-After": "30"}, `{"detail":{"error":"Rate limit exceeded"}}`,
			"Tavily API error (429): Rate limit exceeded; retry after 30s."},
		{"429 without Retry-After", Exa, 429, nil, `too many`, "Exa API error (429): too many; rate limited, retry later."},
		{"5xx", Kagi, 502, nil, `<html>Bad Gateway</html>`, "Kagi API error (502): <html>Bad Gateway</html>; the provider failed, retry later."},
		{"anthropic 404", Anthropic, 404, nil, `{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`,
			"Anthropic web search returned 404 (model or endpoint not found). Check ANTHROPIC_SEARCH_MODEL and ANTHROPIC_SEARCH_BASE_URL."},
		{"malformed JSON", SearXNG, 200, nil, `{"results":[{"title":`, "SearXNG answered with malformed JSON (a syntax error at byte"},
		{"429 saying rate limited", SearXNG, 429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"rate limited"}}`,
			"SearXNG API error (429): rate limited; retry after 7s."},
		{"huge error message", Brave, 500, nil, `{"error":{"message":"` + strings.Repeat("é", 1<<20) + `"}}`,
			"Brave API error (500): " + strings.Repeat("é", 150) + "…; the provider failed, retry later."},
		{"wrong shape", SearXNG, 200, nil, `{"results": "none"}`, "SearXNG answered with malformed JSON (its field results is a JSON string where another kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDouble(t)
			d.answer = func(w http.ResponseWriter, r *http.Request) bool {
				for k, v := range c.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte(c.body))
				return true
			}
			_, err := d.searcher(only(d.srv.URL, c.id), Timeouts{}).Search(context.Background(), "", Params{Query: "q"})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 600 {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// One result with a field of the wrong type (a numeric title, a null
// entry) costs that field, not the whole answer.
func TestOddResultFields(t *testing.T) {
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		_, _ = w.Write([]byte(`{"results": [null, {"title": null, "url": null}, {"title": 5, "url": "https://x.test/five", "content": true},
			{"title": "Good", "url": "https://x.test/good", "content": "fine", "score": "high"}]}`))
		return true
	}
	r, err := d.searcher(only(d.srv.URL, SearXNG), Timeouts{}).Search(context.Background(), "", Params{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range r.Sources {
		titles = append(titles, s.Title+" "+s.URL)
	}
	got := strings.Join(titles, "|")
	if !strings.Contains(got, "5 https://x.test/five") || !strings.Contains(got, "Good https://x.test/good") {
		t.Errorf("sources %q", got)
	}
}

// A provider that fails hands the query to the next one; when all fail
// the message names them all and the last error.
func TestFallback(t *testing.T) {
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/search" { // Tavily, first in the order
			w.WriteHeader(500)
			return true
		}
		return false
	}
	s := d.searcher(only(d.srv.URL, Tavily, Brave), Timeouts{})
	r, err := s.Search(context.Background(), "", Params{Query: "go generics"})
	if err != nil || r.Provider != Brave {
		t.Fatalf("%v %+v", err, r)
	}
	d.answer = func(w http.ResponseWriter, r *http.Request) bool { w.WriteHeader(503); return true }
	_, err = s.Search(context.Background(), "", Params{Query: "go generics"})
	want := "All web search providers failed (Tavily, Brave). Last error: Brave API error (503): Service Unavailable; the provider failed, retry later."
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// The preferred provider goes first; an explicit provider that is not
// configured falls back to the automatic order; none configured is an
// error naming the keys.
func TestChain(t *testing.T) {
	s := New(only("http://x", Brave, Kagi, SearXNG, Anthropic), Options{})
	if got := s.Chain("kagi"); len(got) != 4 || got[0] != Kagi || got[1] != Brave || got[2] != Anthropic || got[3] != SearXNG {
		t.Fatalf("chain %v", got)
	}
	if got := s.Chain("tavily"); got[0] != Brave {
		t.Fatalf("unconfigured preference leads: %v", got)
	}
	if Configured(config.WebSearch{}, nil) {
		t.Fatal("an empty configuration is usable")
	}
	_, err := New(config.WebSearch{}, Options{}).Search(context.Background(), "", Params{Query: "q"})
	if err != ErrNoProvider {
		t.Fatalf("%v", err)
	}
}

// A provider that stalls before answering, or in the middle of its
// answer, fails with the phase that ran out; one that cannot be reached
// fails quickly too.
func TestStalls(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Query().Get("q") == "idle" {
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"web":`))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return true
	}
	s := d.searcher(only(d.srv.URL, Brave), Timeouts{FirstByte: 50 * time.Millisecond, Idle: 50 * time.Millisecond})
	_, err := s.Search(context.Background(), "", Params{Query: "first"})
	if err == nil || !strings.HasPrefix(err.Error(), "Brave did not start answering within") {
		t.Fatalf("first byte: %v", err)
	}
	_, err = s.Search(context.Background(), "", Params{Query: "idle"})
	if err == nil || !strings.HasPrefix(err.Error(), "Brave stopped sending its answer for") {
		t.Fatalf("idle: %v", err)
	}
	// A port nothing listens on: refused at once.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	s = New(only("http://x", Brave), Options{BaseURLs: map[ID]string{Brave: "http://" + addr}})
	_, err = s.Search(context.Background(), "", Params{Query: "q"})
	if err == nil || !strings.HasPrefix(err.Error(), "Brave request failed:") || !strings.Contains(err.Error(), "check the network") {
		t.Fatalf("refused: %v", err)
	}
}

// Kagi reports some failures in a 200 answer's error list.
func TestKagiErrorList(t *testing.T) {
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		_, _ = w.Write([]byte(`{"meta":{"id":"x"},"data":[],"error":[{"code":401,"msg":"Unauthorized"}]}`))
		return true
	}
	_, err := d.searcher(only(d.srv.URL, Kagi), Timeouts{}).Search(context.Background(), "", Params{Query: "q"})
	if err == nil || err.Error() != "Kagi authorization failed (401). Check KAGI_API_KEY." {
		t.Fatalf("%v", err)
	}
}

// omp writes the current year over 2020–2029 in queries.
func TestYearRewrite(t *testing.T) {
	d := newDouble(t)
	if _, err := d.searcher(only(d.srv.URL, Brave), Timeouts{}).Search(context.Background(), "brave", Params{Query: "go 2023 release"}); err != nil {
		t.Fatal(err)
	}
	if q := d.last(t).Query.Get("q"); q != "go 2026 release" {
		t.Fatalf("q=%q", q)
	}
}

// Z.AI's MCP server is asked again with the next spelling of the query
// argument when it rejects the arguments; a JSON-RPC error is one line.
func TestZaiArgumentRetry(t *testing.T) {
	d := newDouble(t)
	calls := 0
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		calls++
		switch calls {
		case 1:
			_, _ = w.Write([]byte(`data: {"jsonrpc":"2.0","id":"1","result":{"isError":true,"content":[{"type":"text","text":"MCP error -32602: Invalid arguments: search_query is required"}]}}` + "\n\n"))
			return true
		case 2:
			return false // the fixture
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"quota\nexceeded"}}`))
		return true
	}
	cfg := config.WebSearch{Zai: "zai-key"}
	s := d.searcher(cfg, Timeouts{})
	r, err := s.Search(context.Background(), "", Params{Query: "go generics"})
	if err != nil || len(r.Sources) != 2 || r.Sources[0].Author != "go.dev" {
		t.Fatalf("%v %+v", err, r)
	}
	if args := d.last(t).Body["params"].(map[string]any)["arguments"].(map[string]any); args["search_query"] != "go generics" {
		t.Fatalf("retry arguments %v", args)
	}
	_, err = s.Search(context.Background(), "", Params{Query: "x"})
	if err == nil || err.Error() != "Z.AI MCP error (-32001): quota exceeded" {
		t.Fatalf("%v", err)
	}
}

// Without url_citation annotations, the links written in a Codex answer
// are its sources; a failed response is one line.
func TestCodexLinkSources(t *testing.T) {
	text := "See [the notes](https://go.dev/doc/go1.18), [spec](https://go.dev/ref/spec#Type_parameters_(generics)). Also https://example.org, and (https://example.net/x)."
	got := linkSources(text)
	want := []string{"https://go.dev/doc/go1.18", "https://go.dev/ref/spec#Type_parameters_(generics)", "https://example.org/", "https://example.net/x"}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i, w := range want {
		if got[i].URL != w {
			t.Errorf("%d: %q, want %q", i, got[i].URL, w)
		}
	}
	if got[0].Title != "the notes" || got[2].Title != "https://example.org/" {
		t.Errorf("titles %+v", got)
	}
	_, err := codexEvents([]byte("data: {\"type\":\"response.failed\",\"response\":{\"error\":{\"message\":\"usage limit\"}}}\n\n"), "m")
	if err == nil || err.Error() != "Codex request failed: usage limit" {
		t.Fatalf("%v", err)
	}
}

// fakeKeys is a credential store holding keys by provider name.
type fakeKeys map[string]string

func (f fakeKeys) KeySource(name string) string {
	if f[name] != "" {
		return "agent.db"
	}
	return ""
}

func (f fakeKeys) APIKeyContext(_ context.Context, name string) (string, string, string, error) {
	return f[name], "", "agent.db", nil
}

// A key stored by a sign-in (agent.db) makes its provider usable and is
// the one sent, as omp's providers look there too.
func TestStoredKeys(t *testing.T) {
	d := newDouble(t)
	keys := fakeKeys{"kimi-code": "stored-kimi", "openai-codex": codexToken}
	if !Configured(config.WebSearch{}, keys) || Configured(config.WebSearch{}, fakeKeys{"unrelated": "x"}) {
		t.Fatal("Configured ignores the stored keys")
	}
	s := New(config.WebSearch{}, Options{Keys: keys, BaseURLs: map[ID]string{Kimi: d.srv.URL, Codex: d.srv.URL}})
	if got := s.Chain(""); len(got) != 2 || got[0] != Kimi || got[1] != Codex {
		t.Fatalf("chain %v", got)
	}
	if _, err := s.Search(context.Background(), "", Params{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	if h := d.last(t).Header.Get("Authorization"); h != "Bearer stored-kimi" {
		t.Fatalf("sent %q", h)
	}
	if _, err := s.Search(context.Background(), "codex", Params{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	if h := d.last(t).Header.Get("Chatgpt-Account-Id"); h != "acct-1" {
		t.Fatalf("account %q", h)
	}
}

// Every provider (the connect limit: TestEveryProviderConnectTimeout),
// asked of a server that accepts the connection and
// never answers, fails with its first-byte limit, naming itself; asked
// of one that starts its answer and then goes silent, with its idle
// limit.
func TestEveryProviderStalls(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	done := make(chan struct{})
	go func() { // accepts and holds every connection until the test ends
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range held {
			c.Close()
		}
	})
	everyEndpoint(t, "http://"+l.Addr().String(), Timeouts{FirstByte: 30 * time.Millisecond}, " did not start answering within")

	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("{"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(silent.Close)
	everyEndpoint(t, silent.URL, Timeouts{Idle: 30 * time.Millisecond}, " stopped sending its answer for")
}

// everyEndpoint searches every provider, and the keyless Exa and
// Perplexity's web app, at base with tm, and wants each failure to start
// with the provider's name and want.
func everyEndpoint(t *testing.T, base string, tm Timeouts, want string) {
	t.Helper()
	s := New(allKeys(base), Options{Keys: fakeKeys{"google-gemini-cli": googleLogin}, Timeouts: tm, BaseURLs: map[ID]string{
		Gemini: base, Brave: base, Tavily: base, Perplexity: base, Jina: base, Exa: base, Parallel: base, Kagi: base, Kimi: base, Synthetic: base, Zai: base, Codex: base}})
	other := New(config.WebSearch{ExaSearch: true, PerplexityCookies: "c=1"}, Options{Timeouts: tm,
		BaseURLs: map[ID]string{ExaMCP: base, perplexityWebBase: base}})
	s.backoff = time.Millisecond // Gemini asks again after no connection
	for _, id := range append(append([]ID{}, Order...), ExaMCP, perplexityWebBase) {
		searcher, name := s, id
		if id == ExaMCP || id == perplexityWebBase {
			searcher, name = other, map[ID]ID{ExaMCP: Exa, perplexityWebBase: Perplexity}[id]
		} else if _, ok := providers[id]; !ok {
			continue
		}
		_, err := searcher.Search(context.Background(), string(name), Params{Query: "q"})
		if err == nil || !strings.HasPrefix(err.Error(), name.Label()+want) {
			t.Errorf("%s: %v", id, err)
		}
	}
}

// A provider that answers 200 and then trickles its body a byte at a
// time (never silent long enough for the idle limit) is cut off by the
// overall deadline, and the failure names it.
func TestOverallDeadline(t *testing.T) {
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"results":[`))
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return true
			case <-tick.C:
				_, _ = w.Write([]byte(" "))
			}
		}
	}
	s := d.searcher(only(d.srv.URL, SearXNG), Timeouts{Idle: time.Minute, Total: 150 * time.Millisecond})
	_, err := s.Search(context.Background(), "", Params{Query: "q"})
	want := "SearXNG did not finish its answer within 150ms; try again later or choose another provider with providers.webSearch"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if (Timeouts{}).withDefaults().Total != DefaultTotal {
		t.Fatal("no default overall deadline")
	}
}

// A 2xx answer larger than 16 MiB fails saying so, not as malformed JSON.
func TestAnswerTooLarge(t *testing.T) {
	d := newDouble(t)
	status := http.StatusOK
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"results":[{"title":"`))
		_, _ = w.Write(bytes.Repeat([]byte("x"), maxBody))
		_, _ = w.Write([]byte(`"}]}`))
		return true
	}
	_, err := d.searcher(only(d.srv.URL, SearXNG), Timeouts{}).Search(context.Background(), "", Params{Query: "q"})
	want := "SearXNG answered with more than 16 MiB, more than a search answer can be; ask for fewer results or choose another provider with providers.webSearch"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	status = http.StatusBadGateway // a failure stays the failure, however long its body
	_, err = d.searcher(only(d.srv.URL, SearXNG), Timeouts{}).Search(context.Background(), "", Params{Query: "q"})
	if err == nil || !strings.HasPrefix(err.Error(), "SearXNG API error (502): ") {
		t.Fatalf("got %v", err)
	}
}

// A provider named explicitly but not configured is refused with what
// to set; auto, "" and a configured provider pass.
func TestCheckProvider(t *testing.T) {
	s := New(only("http://x", Brave), Options{})
	for _, ok := range []string{"", "auto", "brave"} {
		if err := s.CheckProvider(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for p, want := range map[string]string{
		"searxng": "SearXNG is not configured: set SEARXNG_ENDPOINT (or the searxng.endpoint setting)",
		"kagi":    "Kagi is not configured: set KAGI_API_KEY",
		"gemini":  "Gemini is not configured: it needs a Google sign-in (gopi login google-gemini-cli)",
		"bing":    `unknown web search provider "bing"`,
	} {
		if err := s.CheckProvider(p); err == nil || err.Error() != want {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, id := range Order {
		if needs[id] == "" {
			t.Errorf("%s: no setup hint", id)
		}
	}
}

// An endpoint written without its scheme is refused with the http:// it
// lacks suggested, not with Go's URL parser error.
func TestEndpointWithoutScheme(t *testing.T) {
	cases := []struct {
		cfg  config.WebSearch
		want string
	}{
		{config.WebSearch{SearXNG: config.SearXNG{Endpoint: "127.0.0.1:18938/ok"}},
			`SearXNG endpoint "127.0.0.1:18938/ok" has no scheme: write it as "http://127.0.0.1:18938/ok" (or https://…) in SEARXNG_ENDPOINT or searxng.endpoint`},
		{config.WebSearch{SearXNG: config.SearXNG{Endpoint: "localhost:8888"}},
			`SearXNG endpoint "localhost:8888" has no scheme: write it as "http://localhost:8888" (or https://…) in SEARXNG_ENDPOINT or searxng.endpoint`},
		{config.WebSearch{SearXNG: config.SearXNG{Endpoint: "ftp://host/x"}},
			`SearXNG endpoint "ftp://host/x" is not an http:// or https:// URL with a host; fix SEARXNG_ENDPOINT or searxng.endpoint`},
		{config.WebSearch{Kimi: "k", KimiURL: "api.kimi.com/coding/v1/search"},
			`Kimi endpoint "api.kimi.com/coding/v1/search" has no scheme: write it as "http://api.kimi.com/coding/v1/search" (or https://…) in MOONSHOT_SEARCH_BASE_URL or KIMI_SEARCH_BASE_URL`},
		{config.WebSearch{AnthropicKey: "k", AnthropicBaseURL: "127.0.0.1:9"},
			`Anthropic endpoint "127.0.0.1:9" has no scheme: write it as "http://127.0.0.1:9" (or https://…) in ANTHROPIC_SEARCH_BASE_URL or ANTHROPIC_BASE_URL`},
	}
	for _, c := range cases {
		_, err := New(c.cfg, Options{}).Search(context.Background(), "", Params{Query: "q"})
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}
