package shell

import (
	"context"
	"io"
	"testing"
)

// BenchmarkSessionEcho is the per-command overhead of the persistent
// shell: `echo hi` from the request to the trailer (target ≤ 2 ms).
func BenchmarkSessionEcho(b *testing.B) {
	cfg := Config{Path: "/bin/bash", Env: []string{"PATH=/usr/bin:/bin"}, Exports: NonInteractiveEnv(false)}
	sh, err := Start(context.Background(), cfg, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer sh.Close()
	var out countWriter
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := sh.Run(ctx, Request{Command: "echo hi", Output: &out})
		if err != nil || res.ExitCode != 0 {
			b.Fatal(res, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/cmd")
}

// BenchmarkRunOnceEcho is the same command in a fresh one-shot shell,
// for comparison.
func BenchmarkRunOnceEcho(b *testing.B) {
	cfg := Config{Path: "/bin/bash", Env: []string{"PATH=/usr/bin:/bin"}, Exports: NonInteractiveEnv(false)}
	dir := b.TempDir()
	for b.Loop() {
		if _, err := RunOnce(context.Background(), cfg, Request{Command: "echo hi", Dir: dir, Output: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
}
