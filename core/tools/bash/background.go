package bash

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// jobType is the type of the bash tool's background jobs.
const jobType = "bash"

// startedText ends the result of a call that became a background job.
const startedText = "Its result will be delivered to you when it finishes; carry on with other work meanwhile. Use the job tool only if you are blocked on it."

// startJob runs the call as a background job in a fresh shell and
// returns at once with the job id.
func (t *Tool) startJob(c call) (*tool.Result, error) {
	lbl := label(c.Command)
	id, err := t.jobs.Register(jobType, lbl, func(ctx context.Context, _ string, _ func(string, any)) (string, error) {
		res, err := t.jobRun(ctx, c, RunOptions{OneShot: true}, nil)
		return res.FirstText(), err
	}, job.RegisterOptions{})
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	return startedResult(c, id, lbl, ""), nil
}

// jobRun runs a background job's command and returns the call's answer:
// a result, or an error holding the output and the reason.
func (t *Tool) jobRun(ctx context.Context, c call, opts RunOptions, onTail func(string)) (*tool.Result, error) {
	opts.Dir, opts.Env, opts.Timeout, opts.OnTail = c.dir, c.env, c.timeout(), onTail
	o, err := Run(ctx, t.env, t.shell, c.command, opts)
	if err != nil {
		return &tool.Result{}, err
	}
	res, err := finish(c.input, o)
	if err != nil {
		return &tool.Result{}, err
	}
	return res, nil
}

// startedResult is the answer of a call that continues in the background.
func startedResult(c call, id, lbl, preview string) *tool.Result {
	var b strings.Builder
	if p := strings.TrimRight(strings.ToValidUTF8(preview, "\uFFFD"), " \t\n"); p != "" {
		b.WriteString(p)
		b.WriteString("\n\n")
	}
	if n := c.clampNotice(); n != "" {
		b.WriteString(n)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "Background job %s started: %s\n%s", id, lbl, startedText)
	d := c.details()
	d.Async = &Async{State: "running", JobID: id, Type: jobType}
	return tool.TextResult(b.String(), d)
}

// autoWait is how long a call waits before it moves to the background:
// bash.autoBackground.thresholdMs, at most the timeout less one second.
func (t *Tool) autoWait(c call) time.Duration {
	return max(min(t.env.Settings.Bash.AutoThreshold, c.timeout()-time.Second), 0)
}

// finished carries a job's outcome back to a call still waiting for it.
type finished struct {
	res *tool.Result
	err error
}

// runAutoBackground runs the call in the session's shell as a job and
// waits for it up to autoWait: a job that finishes in time answers the
// call as a foreground run would; one still running becomes a background
// job and the call returns its id with the output so far.
func (t *Tool) runAutoBackground(ctx context.Context, c call, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	m := t.jobs
	lbl := label(c.Command)
	wait := t.autoWait(c)
	done := make(chan finished, 1)
	var latest atomic.Value // string: the output tail so far
	// mu guards the hand-over: while the call waits, a finishing job
	// claims its result for the call (acknowledged before the manager
	// would queue it for delivery); once the call has returned, the job is
	// the manager's to deliver.
	var mu sync.Mutex
	waiting, claimed := wait > 0, false
	onTail := func(tail string) {
		latest.Store(tail)
		mu.Lock()
		defer mu.Unlock()
		if waiting {
			tailUpdates(onUpdate)(tail)
		}
	}
	id, err := m.Register(jobType, lbl, func(jctx context.Context, id string, _ func(string, any)) (string, error) {
		res, err := t.jobRun(jctx, c, RunOptions{}, onTail)
		mu.Lock()
		if waiting {
			claimed = true
			m.Acknowledge([]string{id})
		}
		mu.Unlock()
		done <- finished{res: res, err: err}
		return res.FirstText(), err
	}, job.RegisterOptions{})
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	if wait == 0 {
		return startedResult(c, id, lbl, ""), nil
	}
	after := time.After
	if t.autoTimer != nil {
		after = t.autoTimer
	}
	waited := after(wait)
	answer := func(f finished) (*tool.Result, error) {
		if f.err != nil {
			return nil, f.err
		}
		return f.res, nil
	}
	select {
	case f := <-done:
		return answer(f)
	case <-ctx.Done():
		m.Cancel(id)
		m.Acknowledge([]string{id})
		<-done
		return nil, fmt.Errorf("bash: %w", tool.ErrAborted)
	case <-waited:
		mu.Lock()
		if claimed {
			mu.Unlock()
			return answer(<-done)
		}
		waiting = false
		mu.Unlock()
		preview, _ := latest.Load().(string)
		return startedResult(c, id, lbl, preview), nil
	}
}
