package agentsession

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
)

// Turn is the part of a session that decides who works on the
// conversation: at most one prompt (its runs, the maintenance after them,
// todo reminders) or compaction at a time. A prompt that arrives while a
// run streams is queued for the agent (steer or follow-up) and delivered
// by the work in progress before it gives the turn back; one that arrives
// between runs waits for the turn. A manual compaction aborts the work and
// waits for the turn; the tree operations fail while a run streams and
// wait for the rest. Turn owns the turn itself, the closed state, the
// abort generation and the messages kept for the next prompt, under its
// own lock; it reaches the conversation only through the agent loop.
type Turn struct {
	agent   *agent.Agent
	held    chan struct{} // held by the prompt or compaction working
	closing chan struct{} // closed by Close: nobody new gets the turn

	// waiting counts the callers in acquire (a prompt waiting for the
	// work before it), so that a test can wait for one to be there.
	waiting atomic.Int32

	mu       sync.Mutex
	closed   bool
	aborts   int          // Abort calls so far (work of an older generation stops)
	nextTurn []ai.Message // custom messages kept for the next user prompt
}

// newTurn returns the turn of a session whose loop is a.
func newTurn(a *agent.Agent) *Turn {
	return &Turn{agent: a, held: make(chan struct{}, 1), closing: make(chan struct{})}
}

// Steer queues text to be delivered before the next model call.
func (t *Turn) Steer(text string, images ...*ai.ImageContent) {
	t.agent.Steer(userMessage(text, images))
}

// FollowUp queues text to be delivered when the current run would end.
func (t *Turn) FollowUp(text string, images ...*ai.ImageContent) {
	t.agent.FollowUp(userMessage(text, images))
}

// AbortRetry cancels a retry wait in progress.
func (t *Turn) AbortRetry() { t.agent.AbortRetry() }

// SetAutoRetry turns automatic retries on or off.
func (t *Turn) SetAutoRetry(on bool) {
	r := t.agent.Retry()
	r.Enabled = on
	t.agent.SetRetry(r)
}

// IsStreaming reports whether a run is in progress.
func (t *Turn) IsStreaming() bool { return t.agent.IsRunning() }

// IsBusy reports whether the session is working: a run, the maintenance
// after it, todo reminders or a compaction. A prompt sent while a run
// streams must say how to deliver it (steer or follow-up); one sent during
// the rest waits for it.
func (t *Turn) IsBusy() bool { return t.busy() || t.agent.IsRunning() }

// WaitIdle waits until no run is in progress and the work after it
// (maintenance, reminders, a compaction) is done.
func (t *Turn) WaitIdle(ctx context.Context) error {
	if err := t.agent.WaitIdle(ctx); err != nil {
		return err
	}
	if err := t.acquire(ctx); err != nil {
		if errors.Is(err, errClosed) {
			return nil // Close holds the turn for good
		}
		return err
	}
	t.release()
	return nil
}

// tryAcquire takes the turn if it is free (and the session open).
func (t *Turn) tryAcquire() bool {
	select {
	case t.held <- struct{}{}:
		select {
		case <-t.closing:
			t.release()
			return false
		default:
			return true
		}
	default:
		return false
	}
}

// acquire waits for the turn, for ctx, or for the session to close.
func (t *Turn) acquire(ctx context.Context) error {
	t.waiting.Add(1)
	defer t.waiting.Add(-1)
	select {
	case t.held <- struct{}{}:
		select {
		case <-t.closing: // won the race against Close: hand the turn to it
			t.release()
			return errClosed
		default:
			return nil
		}
	case <-ctx.Done():
		return ctx.Err()
	case <-t.closing:
		return errClosed
	}
}

// release gives the turn back.
func (t *Turn) release() { <-t.held }

// busy reports whether the turn is taken.
func (t *Turn) busy() bool { return len(t.held) > 0 }

// take takes the turn for work on the conversation outside a run (a tree
// move, a branch, a switch, a handoff): it fails with ErrWorking while a
// run streams and waits for the work after a run (maintenance, a
// compaction) to finish.
func (t *Turn) take(ctx context.Context) error {
	if t.isClosed() {
		return errClosed
	}
	if t.agent.IsRunning() {
		return ErrWorking
	}
	if err := t.acquire(ctx); err != nil {
		return err
	}
	if t.agent.IsRunning() { // a run started outside the session (through Agent())
		t.release()
		return ErrWorking
	}
	return nil
}

// close marks the session closed and stops anyone new from getting the
// turn; it reports false when the session was already closed.
func (t *Turn) close() bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return false
	}
	t.closed = true
	t.mu.Unlock()
	close(t.closing)
	return true
}

// keep holds the turn for good (Close, once the work has stopped).
func (t *Turn) keep() { t.held <- struct{}{} }

// isClosed reports whether Close was called.
func (t *Turn) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// abortGeneration returns the number of aborts so far; work started in
// one generation stops starting runs once it has moved on.
func (t *Turn) abortGeneration() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.aborts
}

// abortedSince reports whether Abort was called since generation gen.
func (t *Turn) abortedSince(gen int) bool { return t.abortGeneration() != gen }

// newGeneration counts an Abort.
func (t *Turn) newGeneration() {
	t.mu.Lock()
	t.aborts++
	t.mu.Unlock()
}

// keepForNext keeps m for the next user prompt.
func (t *Turn) keepForNext(m ai.Message) {
	t.mu.Lock()
	t.nextTurn = append(t.nextTurn, m)
	t.mu.Unlock()
}

// takeNext returns the messages kept for the next prompt and forgets
// them.
func (t *Turn) takeNext() []ai.Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.nextTurn
	t.nextTurn = nil
	return out
}

// keptCount returns how many messages wait for the next prompt.
func (t *Turn) keptCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.nextTurn)
}

// abortRun stops the run in progress and the automatic maintenance after
// it (not a manual compaction).
func (s *Session) abortRun() {
	s.gate.newGeneration()
	s.compactor.abortAuto()
	s.agent.Abort()
}

// Abort stops the current run (its partial answer is kept), the
// maintenance after it, and any compaction, branch summary or handoff in
// progress.
func (s *Session) Abort() {
	s.abortRun()
	s.compactor.Abort()
	s.tree.AbortSummary()
	s.compactor.AbortHandoff()
}

// isClosed reports whether Close was called.
func (s *Session) isClosed() bool { return s.gate.isClosed() }
