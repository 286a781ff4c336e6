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

// exaMCPDouble answers like Exa's public MCP server: body for every
// POST /mcp (events), status when not 200.
func exaMCPDouble(t *testing.T, status int, body string) (*double, *Searcher) {
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/mcp" {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
		return true
	}
	s := New(config.WebSearch{Enabled: true, ExaSearch: true}, Options{Now: func() time.Time { return testNow }, BaseURLs: map[ID]string{ExaMCP: d.srv.URL}})
	return d, s
}

// Without EXA_API_KEY, Exa is asked through its public MCP server:
// JSON-RPC tools/call of web_search_exa, no key; its text sections are
// the sources.
func TestExaKeyless(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "exa-mcp.sse"))
	if err != nil {
		t.Fatal(err)
	}
	d, s := exaMCPDouble(t, 200, string(data))
	if got := s.Chain(""); len(got) != 1 || got[0] != Exa {
		t.Fatalf("chain without keys: %v", got)
	}
	r, err := s.Search(context.Background(), "", Params{Query: "go generics", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	req := d.last(t)
	want(t, req.Method == "POST" && req.Query.Get("tools") == "web_search_exa" && req.Query.Get("exaApiKey") == "" && req.Header.Get("X-Api-Key") == "", req)
	want(t, req.Header.Get("Accept") == "application/json, text/event-stream" && req.Body["jsonrpc"] == "2.0" && req.Body["method"] == "tools/call", req)
	params, _ := req.Body["params"].(map[string]any)
	args, _ := params["arguments"].(map[string]any)
	want(t, params["name"] == "web_search_exa" && args["query"] == "go generics" && args["num_results"] == 5.0 && len(args) == 2, req)
	golden.Check(t, filepath.Join("testdata", "exa-mcp.golden"), Text(r)+"\n")

	// A search answer as JSON in the text part, as other deployments give.
	d2, s2 := exaMCPDouble(t, 200, `{"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"{\"results\":[{\"title\":\"A\",\"url\":\"https://a.example\",\"summary\":\"sum A\"}],\"searchTime\":1.2}"}]}}`)
	r, err = s2.Search(context.Background(), "", Params{Query: "q"})
	if err != nil || len(r.Sources) != 1 || r.Sources[0].URL != "https://a.example" || r.Answer != "**A**: sum A" {
		t.Fatalf("JSON text part: %+v, %v", r, err)
	}
	if args := d2.last(t).Body["params"].(map[string]any)["arguments"].(map[string]any); len(args) != 1 {
		t.Errorf("arguments without a limit: %v", args)
	}
}

// Exa's MCP failures are one line naming Exa; with exa.enabled off (Exa
// not asked) and no other provider, there is no provider at all.
func TestExaKeylessErrors(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		want   string
	}{
		{200, `data: {"jsonrpc":"2.0","id":"1","error":{"code":-32602,"message":"bad arguments"}}` + "\n\n", "Exa MCP error: bad arguments"},
		{200, `data: {"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"nothing here"}]}}` + "\n\n", "Exa MCP search answered in a shape gopi does not read"},
		{200, "data: {not json\n\n", "Exa MCP answer could not be read"},
		{503, "down", "Exa API error (503): down"},
	} {
		_, s := exaMCPDouble(t, c.status, c.body)
		_, err := s.Search(context.Background(), "", Params{Query: "q"})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%d %q: %v, want %q", c.status, c.body, err, c.want)
		}
	}
	if Configured(config.WebSearch{Enabled: true}, nil) {
		t.Error("Exa offered with exa.enabled off")
	}
}

// FuzzExaText feeds arbitrary tool results as Exa's MCP text answer:
// reading never panics, and every result it finds has a title, URL or
// text.
func FuzzExaText(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join("testdata", "exa-mcp.sse"))
	if msg, ok := mcpMessage(data); ok {
		f.Add(string(msg))
	}
	f.Add(`{"content":[{"text":"Title: a\nURL: b"}]}`)
	f.Add(`{"content":[{"text":"x\n\n\nTitle:\n\nURL: u\nText: t"},{"text":"Title: z\nText:"}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var out *exaResponse
		func() {
			defer func() {
				if recover() != nil {
					t.Fatalf("panic on %q", raw)
				}
			}()
			out = exaTextPayload([]byte(raw))
			_ = exaSearchPayload([]byte(raw))
		}()
		if out == nil {
			return
		}
		for _, r := range out.Results {
			if r.Title == "" && r.URL == "" && r.Text == "" {
				t.Fatalf("empty result from %q", raw)
			}
		}
	})
}
