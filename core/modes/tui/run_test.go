package tui

import (
	"context"
	"io"
	"os"
	"os/signal"
	"runtime"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// Run quits on Ctrl+D and leaves no goroutine of its own behind.
func TestRunLeavesNoGoroutines(t *testing.T) {
	r := newRig(t)
	// The first signal.Notify of the process starts os/signal's loop,
	// which runs for good; start it now so that it is not counted as
	// Run's (whether an earlier test started it depends on their order).
	warm := make(chan os.Signal, 1)
	signal.Notify(warm, os.Interrupt)
	signal.Stop(warm)
	base := runtime.NumGoroutine()
	in, keys := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), r.s, Options{Input: in, Output: io.Discard, Cwd: r.project, NoColor: true, Width: 80, Height: 24})
	}()
	// The write returns once Run has read the key.
	keys.Write([]byte{4}) // Ctrl+D on an empty editor
	if err, _ := testwait.Recv(t, "Run to return after Ctrl+D", done); err != nil {
		t.Fatal(err)
	}
	keys.Close()
	deadline := testwait.Deadline(t)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Run, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
