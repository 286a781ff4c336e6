package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	engine "github.com/gopi-agent/gopi/core/websearch"
)

// benchAnswer is a SearXNG answer of 10 results with snippets.
func benchAnswer() []byte {
	var b strings.Builder
	b.WriteString(`{"results":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"title":"Result %d about Go generics","url":"https://example.org/%d","content":"%s","publishedDate":"2025-06-01T00:00:00"}`,
			i, i, strings.Repeat("Type parameters let one function serve many types. ", 6))
	}
	b.WriteString(`],"suggestions":["golang generics"]}`)
	return []byte(b.String())
}

// BenchmarkWebSearch measures a whole web_search call against a local
// provider double that answers at once (tool), and the bare HTTP request
// and read of the same answer (provider); the difference is the tool's
// own overhead (target ≤ 2 ms).
func BenchmarkWebSearch(b *testing.B) {
	answer := benchAnswer()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(answer) }))
	defer srv.Close()
	s := engine.New(config.WebSearch{Enabled: true, SearXNG: config.SearXNG{Endpoint: srv.URL}}, engine.Options{})
	t := NewWith(s)
	args := json.RawMessage(`{"query":"go generics","limit":10}`)
	b.Run("tool", func(b *testing.B) {
		for b.Loop() {
			res, err := tool.Run(context.Background(), t, args, nil)
			if err != nil || !strings.HasPrefix(res.FirstText(), "[1] Result 0") {
				b.Fatal(err, res.FirstText())
			}
		}
	})
	b.Run("provider", func(b *testing.B) {
		for b.Loop() {
			resp, err := http.Get(srv.URL + "/search?q=go+generics&format=json")
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
	})
}
