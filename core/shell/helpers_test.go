package shell

import (
	"bytes"
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
)

// testConfig returns a non-login bash with a marked environment and a
// short kill grace; the test fails if it leaves processes behind.
func testConfig(t *testing.T) Config {
	t.Helper()
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	return Config{
		Path:    "/bin/bash",
		Env:     []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir(), "LC_ALL=C", shelltest.Mark(t)},
		Exports: NonInteractiveEnv(false),
		Grace:   500 * time.Millisecond,
	}
}

// startSession starts a persistent shell in a temporary directory,
// closed at the end of the test.
func startSession(t *testing.T, cfg Config) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	sh, err := Start(context.Background(), cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Close() })
	return sh, dir
}

// buffer is a concurrency-safe bytes.Buffer.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Len()
}

// run runs command in sh and returns its output and result.
// handed is how many output bytes sh has handed on so far.
func handed(sh *Session) int64 {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.handed
}

func run(t *testing.T, sh *Session, req Request) (string, Result) {
	t.Helper()
	var out buffer
	req.Output = &out
	res, err := sh.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), res
}
