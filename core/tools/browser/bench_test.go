package browser

import (
	"strings"
	"testing"
)

// BenchmarkOpenExtract is one warm open (the tab reused, navigated to a
// local article, waiting for its load event) plus one run extracting its
// text: what a model's "read this page with a browser" costs once
// Chromium runs, gopi's own work. bench/browser.sh reports it (target
// ≤ 300 ms).
func BenchmarkOpenExtract(b *testing.B) { benchOpenExtract(b, "load") }

// BenchmarkOpenExtractIdle is the same with open's default wait,
// networkidle2 (as omp): Chromium reports it once the page has had at
// most two connections for 500 ms, so the quiet time is part of it.
func BenchmarkOpenExtractIdle(b *testing.B) { benchOpenExtract(b, "") }

// benchOpenExtract measures open (waiting for waitUntil; "" the default)
// plus extract.
func benchOpenExtract(b *testing.B, waitUntil string) {
	if shared.exec == "" {
		b.Skip("no Chromium")
	}
	open := map[string]any{"action": "open", "name": "bench", "url": shared.srv.URL + "/article"}
	if waitUntil != "" {
		open["wait_until"] = waitUntil
	}
	run := map[string]any{"action": "run", "name": "bench", "code": `return (await tab.extract("text")).text`}
	if _, err := call(b, shared.m, open); err != nil { // the cold start: Chromium and the tab
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := call(b, shared.m, open); err != nil {
			b.Fatal(err)
		}
		res, err := call(b, shared.m, run)
		if err != nil || !strings.Contains(text(res), "waggle dance") {
			b.Fatalf("%v %q", err, text(res))
		}
	}
}
