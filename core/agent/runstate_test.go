package agent

import (
	"context"
	"errors"
	"testing"
)

// TestRunStateBegin checks the check-then-act of starting a run: one run
// at a time, a failed check starts nothing, and the state goes back to
// idle at the end.
func TestRunStateBegin(t *testing.T) {
	t.Parallel()
	r := newRunState()
	select {
	case <-r.idleChan():
	default:
		t.Fatal("a new run state is not idle")
	}
	boom := errors.New("boom")
	if _, _, _, err := r.begin(context.Background(), func() error { return boom }); err != boom {
		t.Fatalf("begin with a failing check: %v", err)
	}
	if r.isRunning() {
		t.Fatal("running after a failed check")
	}

	ctx, cancel, idle, err := r.begin(context.Background(), func() error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !r.isRunning() {
		t.Fatal("not running after begin")
	}
	called := false
	if _, _, _, err := r.begin(context.Background(), func() error { called = true; return nil }); err != ErrBusy {
		t.Fatalf("second begin: %v", err)
	}
	if err := r.whileIdle(func() error { called = true; return nil }); err != ErrBusy {
		t.Fatalf("whileIdle during a run: %v", err)
	}
	if called {
		t.Fatal("a check ran while a run was in progress")
	}
	select {
	case <-r.idleChan():
		t.Fatal("idle during a run")
	default:
	}

	r.abort()
	if ctx.Err() == nil {
		t.Fatal("abort did not cancel the run's context")
	}
	cancel()
	r.end()
	if r.isRunning() {
		t.Fatal("running after end")
	}
	r.abort() // no run: nothing to cancel
	close(idle)
	<-r.idleChan()
	if err := r.whileIdle(func() error { called = true; return nil }); err != nil || !called {
		t.Fatalf("whileIdle when idle: %v, called %v", err, called)
	}
}

// TestRunStateRetryCancel checks that abortRetry cancels the recorded
// retry wait, and does nothing without one.
func TestRunStateRetryCancel(t *testing.T) {
	t.Parallel()
	r := newRunState()
	r.abortRetry()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.setRetryCancel(cancel)
	r.abortRetry()
	if ctx.Err() == nil {
		t.Fatal("abortRetry did not cancel the wait")
	}
	r.setRetryCancel(nil)
	r.abortRetry()
}
