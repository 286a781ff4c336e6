package agent

import (
	"context"
	"sync"
)

// runState is whether a run is in progress and how to stop it: the run's
// cancel function, the cancel function of a retry wait, and the channel
// WaitIdle waits on. Its mutex is first in the agent's lock order (see
// Agent), so a check on "running" and what depends on it (starting a run,
// replacing the conversation) happen in one critical section.
type runState struct {
	// serial is held by a run from its start until its agent_end is
	// delivered: a run that is started while agent_end is being delivered
	// (the agent no longer counts as running) begins after that event.
	serial sync.Mutex

	mu          sync.Mutex
	running     bool
	cancel      context.CancelFunc // cancels the run in progress
	retryCancel context.CancelFunc // cancels the retry wait in progress
	idle        chan struct{}      // closed when no run is in progress
}

func newRunState() runState {
	idle := make(chan struct{})
	close(idle)
	return runState{idle: idle}
}

// isRunning reports whether a run is in progress.
func (r *runState) isRunning() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running
}

// whileIdle calls fn with the run state locked, unless a run is in
// progress (ErrBusy): no run starts until fn returns.
func (r *runState) whileIdle(fn func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		return ErrBusy
	}
	return fn()
}

// begin marks a run as started when none is in progress (else ErrBusy) and
// check, called with the run state locked, approves it. It returns the
// run's context, derived from ctx, and the channel to close once the run
// is over and announced.
func (r *runState) begin(ctx context.Context, check func() error) (context.Context, context.CancelFunc, chan struct{}, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		return nil, nil, nil, ErrBusy
	}
	if err := check(); err != nil {
		return nil, nil, nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	r.running = true
	r.cancel = cancel
	r.idle = make(chan struct{})
	return runCtx, cancel, r.idle, nil
}

// end marks the run as over. The caller cancels the run's context before
// and closes the idle channel after agent_end.
func (r *runState) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running = false
	r.cancel = nil
}

// abort cancels the run in progress, if any.
func (r *runState) abort() {
	r.mu.Lock()
	cancel := r.cancel
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// abortRetry cancels the retry wait in progress, if any.
func (r *runState) abortRetry() {
	r.mu.Lock()
	cancel := r.retryCancel
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// setRetryCancel records (or, with nil, clears) the cancel function of the
// retry wait in progress.
func (r *runState) setRetryCancel(cancel context.CancelFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retryCancel = cancel
}

// idleChan returns the channel that is closed when no run is in progress.
func (r *runState) idleChan() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.idle
}
