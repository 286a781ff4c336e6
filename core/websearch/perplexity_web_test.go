package websearch

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/golden"
)

// pplxWebDouble answers like Perplexity's web app: body for POST
// /rest/sse/perplexity_ask.
func pplxWebDouble(t *testing.T, cfg config.WebSearch, keys Keys, body string) (*double, *Searcher) {
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/rest/sse/perplexity_ask" {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
		return true
	}
	s := New(cfg, Options{Keys: keys, Now: func() time.Time { return testNow },
		BaseURLs: map[ID]string{perplexityWebBase: d.srv.URL, Perplexity: d.srv.URL}})
	return d, s
}

// With PERPLEXITY_COOKIES, Perplexity is asked through its web app, as
// omp does (before the API key): the snapshots merge into the answer
// (chunks continuing from their offset) and the sources (by URL), up to
// the final one.
func TestPerplexityCookies(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "perplexity-web.sse"))
	if err != nil {
		t.Fatal(err)
	}
	d, s := pplxWebDouble(t, config.WebSearch{Perplexity: "pplx-key", PerplexityCookies: " session=abc; cf=1 "}, nil, string(data))
	r, err := s.Search(context.Background(), "perplexity", Params{Query: "go generics", Recency: "week", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	req := d.last(t)
	want(t, req.Path == "/rest/sse/perplexity_ask" && req.Header.Get("Cookie") == "session=abc; cf=1" && req.Header.Get("Authorization") == "", req)
	want(t, req.Header.Get("Accept") == "text/event-stream" && req.Header.Get("Origin") == "https://www.perplexity.ai" && req.Header.Get("X-App-Apiversion") == "2.18" &&
		req.Header.Get("X-Perplexity-Request-Reason") == "submit" && len(req.Header.Get("X-Request-Id")) == 36 && strings.HasPrefix(req.Header.Get("User-Agent"), "Perplexity/"), req)
	params, _ := req.Body["params"].(map[string]any)
	q, _ := req.Body["query_str"].(string)
	want(t, strings.HasPrefix(q, researchPrompt) && strings.HasSuffix(q, "\n\ngo generics") && params["query_str"] == q, req)
	want(t, params["mode"] == "copilot" && params["search_focus"] == "internet" && params["search_recency_filter"] == "week" && params["is_incognito"] == true && params["version"] == "2.18", req)
	golden.Check(t, filepath.Join("testdata", "perplexity-web.golden"), Text(r)+"\n")
	if r.Model != "pplx_pro" || r.RequestID != "resp-7" || r.AuthMode != "oauth" {
		t.Errorf("model %q request %q auth %q", r.Model, r.RequestID, r.AuthMode)
	}
}

// A Perplexity sign-in stored in agent.db is sent as a bearer token; a
// stored API key is not a sign-in; an error event fails the search.
func TestPerplexitySignIn(t *testing.T) {
	ok := "data: " + `{"final":true,"text":"Plain answer.","sources_list":[{"title":"S","url":"https://s.example"}]}` + "\n\n"
	d, s := pplxWebDouble(t, config.WebSearch{}, fakeKeys{"perplexity": "eyJhbGciOi.jwt.sig"}, ok)
	if !s.Usable(Perplexity) {
		t.Fatal("a stored sign-in does not make Perplexity usable")
	}
	r, err := s.Search(context.Background(), "", Params{Query: "q"})
	if err != nil || r.Answer != "Plain answer." || len(r.Sources) != 1 || r.Sources[0].URL != "https://s.example" {
		t.Fatalf("%+v %v", r, err)
	}
	if h := d.last(t).Header.Get("Authorization"); h != "Bearer eyJhbGciOi.jwt.sig" {
		t.Errorf("authorization %q", h)
	}
	_, s = pplxWebDouble(t, config.WebSearch{}, fakeKeys{"perplexity": "pplx-stored"}, ok)
	if _, err := s.Search(context.Background(), "perplexity", Params{Query: "q"}); err == nil || !strings.Contains(err.Error(), "no usable credential") {
		t.Errorf("stored API key: %v", err)
	}
	_, s = pplxWebDouble(t, config.WebSearch{PerplexityCookies: "c=1"}, nil, `data: {"error_code":"RATE_LIMITED","error_message":"slow down"}`+"\n\n")
	if _, err := s.Search(context.Background(), "perplexity", Params{Query: "q"}); err == nil || err.Error() != "Perplexity stream error: slow down" {
		t.Errorf("error event: %v", err)
	}
}

// FuzzPerplexityWeb feeds arbitrary streams as the web app's answer:
// merging never panics, and every source has a URL.
func FuzzPerplexityWeb(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join("testdata", "perplexity-web.sse"))
	f.Add(data)
	f.Add([]byte("data: {\"blocks\":[{\"intended_usage\":\"x_markdown\",\"markdown_block\":{\"chunks\":[\"a\"],\"chunk_starting_offset\":9}}]}\n\n"))
	f.Add([]byte("data: {\"blocks\":[{\"intended_usage\":\"x_markdown\",\"markdown_block\":{\"chunks\":[\"a\"],\"chunk_starting_offset\":-3}}]}\n\ndata: {\"blocks\":[{\"intended_usage\":\"x_markdown\",\"markdown_block\":{\"chunks\":[\"b\"],\"chunk_starting_offset\":-1}}]}\n\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := perplexityWebEvents(raw, testNow)
		if err != nil {
			return
		}
		for _, s := range r.Sources {
			if s.URL == "" {
				t.Fatalf("a source without a URL from %q", raw)
			}
		}
	})
}
