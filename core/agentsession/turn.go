package agentsession

import "context"

// The turn: at most one prompt (its runs, the maintenance after them,
// todo reminders) or compaction works on the conversation at a time. A
// prompt that arrives while a run streams is queued for the agent (steer
// or follow-up) and delivered by the work in progress before it gives the
// turn back; one that arrives between runs waits for the turn. A manual
// compaction aborts the work and waits for the turn.

// tryAcquire takes the turn if it is free (and the session open).
func (s *Session) tryAcquire() bool {
	select {
	case s.turn <- struct{}{}:
		select {
		case <-s.closing:
			s.release()
			return false
		default:
			return true
		}
	default:
		return false
	}
}

// acquire waits for the turn, for ctx, or for the session to close.
func (s *Session) acquire(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		select {
		case <-s.closing: // won the race against Close: hand the turn to it
			s.release()
			return errClosed
		default:
			return nil
		}
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closing:
		return errClosed
	}
}

// release gives the turn back.
func (s *Session) release() { <-s.turn }

// busy reports whether the turn is taken.
func (s *Session) busy() bool { return len(s.turn) > 0 }

// abortGeneration returns the number of aborts so far; work started in
// one generation stops starting runs once it has moved on.
func (s *Session) abortGeneration() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.aborts
}

// abortedSince reports whether Abort was called since generation gen.
func (s *Session) abortedSince(gen int) bool { return s.abortGeneration() != gen }

// abortRun stops the run in progress and the automatic maintenance after
// it (not a manual compaction).
func (s *Session) abortRun() {
	s.mu.Lock()
	s.aborts++
	s.mu.Unlock()
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
