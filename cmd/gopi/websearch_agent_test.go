package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// web_search is offered only when a provider is usable; the model's
// call reaches the provider (a local SearXNG double) and the rendered
// sources come back to the model.
func TestAgentWebSearch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("q") != "go generics" || r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"title":"Tutorial: Getting started with generics","url":"https://go.dev/doc/tutorial/generics","content":"Declare functions that work with any of a set of types."}],"suggestions":["golang type parameters"]}`))
	}))
	defer srv.Close()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("no search")}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("web_search", map[string]any{"query": "go generics", "limit": 3})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("See the tutorial.")}},
	)
	// Exa needs no key (omp asks its public MCP server): with it turned
	// off and no key, there is no provider.
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("exa:\n  enabled: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi"); code != 0 || out != "no search\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if strings.Contains(string(r.Srv.Requests()[0].Body), `"name":"web_search"`) {
		t.Fatal("web_search offered without any provider configured")
	}
	r.Environ = append(r.Environ, "SEARXNG_ENDPOINT="+srv.URL, "SEARXNG_TOKEN=tok")
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "how do generics work?"); code != 0 || out != "See the tutorial.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if !strings.Contains(string(r.Srv.Requests()[1].Body), `"name":"web_search"`) {
		t.Fatal("web_search not offered with SEARXNG_ENDPOINT set")
	}
	want := `[1] Tutorial: Getting started with generics\n    https://go.dev/doc/tutorial/generics\n    Declare functions that work with any of a set of types.\n\n## Related\n1 question\n- golang type parameters`
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(2)); !strings.Contains(msgs, want) {
		t.Fatalf("the search result did not reach the model: %s", msgs)
	}
}

// With default settings and no key, web_search is offered, as in omp:
// Exa answers through its public MCP server without a key.
func TestAgentWebSearchKeyless(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("ok")}})
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi"); code != 0 || out != "ok\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if !strings.Contains(string(r.Srv.Requests()[0].Body), `"name":"web_search"`) {
		t.Fatal("web_search not offered with Exa's keyless search on (the default)")
	}
}
