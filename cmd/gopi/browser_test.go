package main

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/headless"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// needChromium skips a test when no Chromium is installed.
func needChromium(t *testing.T) {
	t.Helper()
	if headless.Find("", exec.LookPath) == "" {
		t.Skip(headless.MissingHint)
	}
}

// pageServer serves one article page on 127.0.0.1.
func pageServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<html><head><title>Owls</title></head><body><article><h1>Owls</h1>
			<p>Owls hunt at night and can turn their heads about two hundred and seventy degrees.</p>
			<p>Their soft feathers let them fly almost silently over fields and woods.</p></article></body></html>`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The model opens a local page, reads its text and takes a screenshot:
// both reach it (the text, and the screenshot as an image block), and no
// Chromium process is left once the session has ended.
func TestAgentBrowser(t *testing.T) {
	needChromium(t)
	srv := pageServer(t)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", map[string]any{"action": "open", "url": srv.URL})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", map[string]any{"action": "run",
			"code": `const r = await tab.extract("text"); await tab.screenshot(); return r.text;`})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("owls fly silently")}},
	)
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "look at the page"); code != 0 || out != "owls fly silently\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	for _, p := range shelltest.Marked(childproc.Mark()) {
		if strings.Contains(p, "chrom") {
			t.Errorf("Chromium left after the session ended: %s", p)
		}
	}
	if !strings.Contains(string(r.Srv.Requests()[0].Body), `"name":"browser"`) {
		t.Fatal("browser not offered with a Chromium installed")
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(msgs, `Opened tab \"main\" on headless browser (hidden)`) {
		t.Fatalf("open result: %s", msgs)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(msgs, "fly almost silently") || !strings.Contains(msgs, "Screenshot captured") || !strings.Contains(msgs, "image/png") {
		t.Fatalf("run result: %s", msgs)
	}
}
