package shell

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// waitFor polls cond until it holds (testwait.Until).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, what, cond)
}

// Close does not leave one-shot commands to their callers: however long
// a caller would take to end its command, the pool's processes are all
// ended (SIGKILL after the grace for those that ignore SIGTERM) before
// Close returns, and the commands report it.
func TestPoolCloseEndsOneShotCommands(t *testing.T) {
	cfg := testConfig(t)
	cfg.Grace = 200 * time.Millisecond
	p := NewPool(cfg, t.TempDir())
	const n = 8
	outs := make([]buffer, n)
	results := make([]Result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// No timeout and a context that never ends: only Close can stop it.
			results[i], _ = p.RunOnce(context.Background(), Request{Command: `trap "" TERM; echo ready; sleep 300`, Output: &outs[i]})
		}()
	}
	waitFor(t, "the commands to start", func() bool {
		for i := range outs {
			if outs[i].String() != "ready\n" {
				return false
			}
		}
		return true
	})
	p.Close()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close returned with one-shot commands still running")
	}
	for i, res := range results {
		if !res.Exited || res.ExitCode != 128+9 {
			t.Errorf("command %d: %+v, want killed", i, res)
		}
	}
	if _, err := p.RunOnce(context.Background(), Request{Command: "true"}); err != ErrPoolClosed {
		t.Fatalf("RunOnce after Close: %v", err)
	}
}
