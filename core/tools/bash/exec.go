package bash

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/shell"
	"github.com/gopi-agent/gopi/core/tool"
)

// UpdateInterval is how often a running command's output tail is
// reported.
const UpdateInterval = 50 * time.Millisecond

// Shell is a session's shell: a persistent shell (one at a time, with
// one-shot fallback) shared by the bash tool and the user's "!cmd"
// commands, starting in the session's directory. The session's services
// own it; it is set up on first use, from the Env's shell settings and
// directory at that time. Every process a command of the session starts,
// in the foreground, the background or a terminal, belongs to its pool
// and ends with Close.
type Shell struct {
	env     *tool.Env
	mu      sync.Mutex
	started bool // the pool was set up (or why not, in err)
	closed  bool
	pool    *shell.Pool
	err     error // why no shell can be found
}

// NewShell returns the (not yet started) shell of the session of env.
func NewShell(env *tool.Env) *Shell { return &Shell{env: env} }

// Pool returns the shell's pool; the error says why no shell can be
// found (also after Close).
func (s *Shell) Pool() (*shell.Pool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errShellClosed
	}
	if !s.started {
		s.started = true
		cfg, err := shell.FromConfig(s.env.Settings.Shell)
		if err != nil {
			s.err = err
		} else {
			s.pool = shell.NewPool(cfg, s.env.Cwd)
		}
	}
	return s.pool, s.err
}

// Close ends the shell and every process its commands started; a shell
// never used has nothing to end. Pool fails afterwards.
func (s *Shell) Close() error {
	s.mu.Lock()
	s.closed = true
	p := s.pool
	s.mu.Unlock()
	if p != nil {
		return p.Close()
	}
	return nil
}

// errShellClosed is the reason a closed session has no shell.
var errShellClosed = errors.New("the session is closed")

// RunOptions refine Run.
type RunOptions struct {
	Dir     string            // where to run; "" is the session shell's directory
	Env     map[string]string // extra variables for this command
	Timeout time.Duration     // 0: none
	OneShot bool              // run in a fresh shell, not the session's
	// OnTail receives the output's kept tail while it grows, at most every
	// UpdateInterval, from another goroutine; nil: no updates.
	OnTail func(tail string)
}

// Outcome is a finished command: its output as an OutputSink kept it and
// how it ended.
type Outcome struct {
	Output tool.SinkSummary // the tail (the whole output when short), sizes, the artifact holding all of it
	Result shell.Result     // exit status, timeout, cancellation, whether the shell is gone
	// FreshShell: the command was meant for the session's shell but ran in
	// a one-shot shell instead (the session's was busy or could not
	// start), so the shell state of earlier calls did not apply and its own
	// will not last.
	FreshShell bool
}

// Run runs command in the session's shell with its output going through
// an OutputSink (a 50 KB tail in memory, everything in an artifact once it
// is longer). It fails only when the command could not be started.
func Run(ctx context.Context, env *tool.Env, sh *Shell, command string, opts RunOptions) (Outcome, error) {
	pool, err := sh.Pool()
	if err != nil {
		return Outcome{}, tool.Errorf("Cannot run commands: %v", err)
	}
	sink := tool.NewOutputSink(env.Artifacts, "bash")
	sink.LimitArtifact(env.Settings.Bash.MaxArtifactBytes)
	stop := StreamTail(sink, opts.OnTail)
	req := shell.Request{Command: command, Dir: opts.Dir, Env: opts.Env, Timeout: opts.Timeout, Output: sink}
	var res shell.Result
	if opts.OneShot {
		res, err = pool.RunOnce(ctx, req)
	} else {
		res, err = pool.Run(ctx, req)
	}
	stop()
	sum, _ := sink.Close() // a failed spill only costs the full copy
	o := Outcome{Output: sum, Result: res, FreshShell: !opts.OneShot && res.OneShot}
	if err != nil && ctx.Err() != nil {
		// Aborted before the shell ran it: a cancelled command, as one
		// aborted while running, not a failure to run one.
		o.Result.Cancelled = true
		return o, nil
	}
	if err != nil {
		return o, tool.Errorf("Cannot run the command: %v", err)
	}
	return o, nil
}

// StreamTail calls onTail with the sink's tail every UpdateInterval while
// it changes, until the returned stop is called.
func StreamTail(sink *tool.OutputSink, onTail func(string)) (stop func()) {
	if onTail == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(UpdateInterval)
		defer t.Stop()
		var seen int64
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			tail, total := sink.Snapshot()
			if total != seen {
				seen = total
				onTail(tail)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// exitText describes a missing exit status for errors.
func exitText(code int) string { return fmt.Sprintf("Command exited with code %d", code) }
