package main

import (
	"bytes"
	"context"
	"os"
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
