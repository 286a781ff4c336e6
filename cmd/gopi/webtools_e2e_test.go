package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Issue 38's "done when", in one session through the mock LLM: the model
// searches the web (a local SearXNG double whose result is a page on
// 127.0.0.1), opens that result in the browser, extracts its text and
// takes a screenshot, then reads issue://12 through a fake gh. Every
// result reaches the model, and no Chromium is left afterwards.
func TestWebToolsEndToEnd(t *testing.T) {
	needChromium(t)
	page := pageServer(t)
	search := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("q") != "owl flight" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"title":"All about owls","url":"` + page.URL + `/owls","content":"How owls hunt and fly."}]}`))
	}))
	t.Cleanup(search.Close)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("web_search", map[string]any{"query": "owl flight"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", map[string]any{"action": "open", "url": page.URL + "/owls"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", map[string]any{"action": "run",
			"code": `const r = await tab.extract("text"); await tab.screenshot(); return r.text;`})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "issue://12"})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Owls fly silently; issue 12 is a crash on empty input.")}},
	)
	log := fakeGhOnPath(t, r)
	r.Environ = append(r.Environ, "SEARXNG_ENDPOINT="+search.URL)
	// Exa (asked without a key by default) is turned off: the local
	// SearXNG is the only provider.
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("exa:\n  enabled: false\ngithub:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "how do owls fly, and what is issue 12?")
	if code != 0 || out != "Owls fly silently; issue 12 is a crash on empty input.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	tools := string(r.Srv.Requests()[0].Body)
	for _, name := range []string{"web_search", "browser", "github", "read"} {
		if !strings.Contains(tools, `"name":"`+name+`"`) {
			t.Errorf("%s not offered", name)
		}
	}
	for i, want := range []string{
		`[1] All about owls\n    ` + page.URL + `/owls\n    How owls hunt and fly.`,
		`Opened tab \"main\" on headless browser (hidden)`,
		"fly almost silently",
		"# Issue #12: Crash on empty input",
	} {
		if msgs := agentrig.MustMarshal(t, r.RequestMessages(i+1)); !strings.Contains(msgs, want) {
			t.Fatalf("request %d lacks %q: %s", i+1, want, msgs)
		}
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(3)); !strings.Contains(msgs, "image/png") {
		t.Fatalf("the screenshot did not reach the model: %s", msgs)
	}
	if calls, _ := os.ReadFile(log); !strings.Contains(string(calls), "issue view 12") {
		t.Errorf("gh was not asked for issue 12:\n%s", calls)
	}
	for _, p := range shelltest.Marked(childproc.Mark()) {
		if strings.Contains(p, "chrom") {
			t.Errorf("Chromium left after the session ended: %s", p)
		}
	}
}
