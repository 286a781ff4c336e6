package tui

import (
	"context"
	"io"
	"runtime"
	"testing"
	"time"
)

// Run quits on Ctrl+D and leaves no goroutine of its own behind.
func TestRunLeavesNoGoroutines(t *testing.T) {
	r := newRig(t)
	base := runtime.NumGoroutine()
	in, keys := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), r.s, Options{Input: in, Output: io.Discard, Cwd: r.project, NoColor: true, Width: 80, Height: 24})
	}()
	time.Sleep(300 * time.Millisecond)
	keys.Write([]byte{4}) // Ctrl+D on an empty editor
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after Ctrl+D")
	}
	keys.Close()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Run, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
