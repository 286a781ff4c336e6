package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// A file that reports size 0 but never ends (/proc/self/pagemap) is
// counted up to the special-file cap, with a note, not read forever.
func TestTokensEndlessPseudoFile(t *testing.T) {
	const p = "/proc/self/pagemap"
	if _, err := os.Stat(p); err != nil {
		t.Skip("no " + p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
	code := run(ctx, env, []string{"tokens", p})
	if ctx.Err() != nil {
		t.Fatalf("still counting %s after two minutes", p)
	}
	if code != 0 || !strings.Contains(stderr.String(), "first 64 MiB") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

// loosenGC turns the collector off up to tokensHeapLimit only when GOGC
// and GOMEMLIMIT are at their defaults, and puts the defaults back; a
// setting of the user's is left alone.
func TestLoosenGC(t *testing.T) {
	if debug.SetGCPercent(100) != 100 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("GOGC or GOMEMLIMIT is set")
	}
	restore := loosenGC()
	if got, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); got != -1 || limit != tokensHeapLimit {
		t.Fatalf("during a count: GC percent %d, memory limit %d; want -1, %d", got, limit, tokensHeapLimit)
	}
	restore()
	if got, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); got != 100 || limit != math.MaxInt64 {
		t.Fatalf("after a count: GC percent %d, memory limit %d; want the defaults", got, limit)
	}
	debug.SetGCPercent(50)
	defer debug.SetGCPercent(100)
	loosenGC()()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Fatalf("with GOGC=50 the count changed the GC percent to %d", got)
	}
}
