package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// searchEnviron is an isolated environment without any web search key.
func searchEnviron(t *testing.T, extra ...string) []string {
	var out []string
	for _, kv := range isolatedEnviron(t) {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(k, "_API_KEY") || strings.HasPrefix(k, "SEARXNG_") || k == "PERPLEXITY_COOKIES" || k == "ANTHROPIC_OAUTH_TOKEN" || k == "OPENAI_CODEX_OAUTH_TOKEN" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

// gopi search asks the configured provider (a local SearXNG) and prints
// the answer and sources.
func TestSearchCommand(t *testing.T) {
	var gotQuery, gotRange string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.NotFound(w, r)
			return
		}
		gotQuery, gotRange = r.URL.Query().Get("q"), r.URL.Query().Get("time_range")
		_, _ = w.Write([]byte(`{"results":[{"title":"Go generics","url":"https://go.dev/doc/tutorial/generics","content":"Type parameters."},{"title":"Second","url":"https://example.org/b"}],"suggestions":["golang generics"]}`))
	}))
	defer srv.Close()
	out, errOut, code := loginRun(t, searchEnviron(t, "SEARXNG_ENDPOINT="+srv.URL), nil, "", "search", "--recency", "day", "-l", "1", "go", "generics")
	if code != exitMatch || errOut != "" {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if gotQuery != "go generics" || gotRange != "day" {
		t.Fatalf("request q=%q time_range=%q", gotQuery, gotRange)
	}
	for _, want := range []string{"Web Search · SearXNG · 1 source\n", "Query: go generics\n", "  Go generics (go.dev)\n    - Type parameters.\n    https://go.dev/doc/tutorial/generics\n", "  Provider: SearXNG\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Second") {
		t.Errorf("-l 1 printed a second source:\n%s", out)
	}
}

// Without a provider (Exa, which needs no key, turned off), gopi search
// says which keys to set and exits 1; bad flags are usage errors.
func TestSearchCommandErrors(t *testing.T) {
	agentDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(agentDir, "config.yml"), []byte("exa:\n  enabled: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := loginRun(t, searchEnviron(t, "PI_CODING_AGENT_DIR="+agentDir), nil, "", "q", "anything")
	if code != exitNoMatch || !strings.HasPrefix(out, "Error: No web search provider configured. Set one of TAVILY_API_KEY") {
		t.Fatalf("exit %d: %q", code, out)
	}
	// A provider named on the command line but not configured is not
	// replaced by another (Exa, keyless, would be asked): the error says
	// what to set.
	out, _, code = loginRun(t, searchEnviron(t), nil, "", "search", "--provider", "searxng", "anything")
	if code != exitNoMatch || out != "Error: SearXNG is not configured: set SEARXNG_ENDPOINT (or the searxng.endpoint setting)\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
	for _, args := range [][]string{{"search"}, {"search", "--provider", "bing", "x"}, {"search", "--recency", "hour", "x"}} {
		_, errOut, code := loginRun(t, searchEnviron(t), nil, "", args...)
		if code != exitError || !strings.HasPrefix(errOut, "gopi search: ") || !strings.Contains(errOut, "see 'gopi search --help'") {
			t.Errorf("%v: exit %d: %q", args, code, errOut)
		}
	}
}
