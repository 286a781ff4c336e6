package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// pairWarmups is how many untimed requests each side makes first.
const pairWarmups = 20

// benchPaired times, in each iteration, the tool's definition call
// (args: file, line, symbol) and the same textDocument/definition sent
// straight through gopi's client to the same server, one after the
// other, so that the server's state and the machine's load weigh on both
// alike. Reported as medians over the iterations: tool-µs, client-µs
// (the server's answer and the JSON-RPC round trip) and overhead-µs (the
// median of the per-iteration differences: argument handling, the file's
// sync check, URI and position mapping, formatting).
func benchPaired(b *testing.B, tl *Tool, args map[string]any) {
	file, line, symbol := args["file"].(string), args["line"].(int), args["symbol"].(string)
	abs := tl.env.Resolve(file)
	c, _, err := tl.mgr.Client(b.Context(), tl.mgr.Servers().PrimaryFor(abs))
	if err != nil {
		b.Fatal(err)
	}
	params := map[string]any{
		"textDocument": map[string]any{"uri": protocol.FileURI(abs)},
		"position":     symbolPosition(b, abs, line, symbol),
	}
	raw, _ := json.Marshal(args)
	toolCall := func() time.Duration {
		start := time.Now()
		res, err := tool.Run(b.Context(), tl, raw, nil)
		d := time.Since(start)
		if err != nil || res.Details.(Details).Success != true {
			b.Fatalf("%v %+v", err, res)
		}
		return d
	}
	clientCall := func() time.Duration {
		var locs []json.RawMessage
		start := time.Now()
		err := c.Request(b.Context(), "textDocument/definition", params, &locs)
		d := time.Since(start)
		if err != nil || len(locs) == 0 {
			b.Fatalf("no definition of %s at %s:%d: %v", symbol, file, line, err)
		}
		return d
	}
	for range pairWarmups {
		toolCall()
		clientCall()
	}
	var tools, clients, diffs []float64
	b.ResetTimer()
	for b.Loop() {
		t, r := toolCall(), clientCall()
		tools = append(tools, micros(t))
		clients = append(clients, micros(r))
		diffs = append(diffs, micros(t-r))
	}
	b.ReportMetric(median(tools), "tool-µs")
	b.ReportMetric(median(clients), "client-µs")
	b.ReportMetric(median(diffs), "overhead-µs")
}

// symbolPosition is where symbol first occurs on the 1-based line of
// abs, as an LSP position (UTF-16; the benchmark files are ASCII up to
// the symbol).
func symbolPosition(b *testing.B, abs string, line int, symbol string) protocol.Position {
	b.Helper()
	text, err := os.ReadFile(abs)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	col := strings.Index(lines[line-1], symbol)
	if col < 0 {
		b.Fatalf("%s:%d has no %q", filepath.Base(abs), line, symbol)
	}
	return protocol.Position{Line: line - 1, Character: col}
}

// micros is d in microseconds.
func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// median is the middle of xs (the mean of the two middles for an even
// count); it sorts xs.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
