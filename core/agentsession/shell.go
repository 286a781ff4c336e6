package agentsession

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/bash"
)

// userBashTimeout bounds a user's shell command, as the bash tool's
// default timeout does.
const userBashTimeout = bash.DefaultTimeout * time.Second

// BashResult is the outcome of a shell command the user ran (RPC bash's
// data, omp's BashResult).
type BashResult struct {
	Output      string `json:"output"`               // the output's tail (all of it when short), stdout and stderr merged
	ExitCode    *int   `json:"exitCode,omitempty"`   // nil when the command did not finish
	Cancelled   bool   `json:"cancelled"`            // aborted (Shell.Abort) or timed out
	Truncated   bool   `json:"truncated"`            // Output is the tail of a longer output
	TotalLines  int64  `json:"totalLines"`           // lines of the whole output
	TotalBytes  int64  `json:"totalBytes"`           // bytes of the whole output
	OutputLines int64  `json:"outputLines"`          // lines in Output
	OutputBytes int64  `json:"outputBytes"`          // bytes in Output
	ArtifactID  string `json:"artifactId,omitempty"` // the artifact holding the whole output
}

// Shell is the part of a session that runs the user's own shell commands
// ("!cmd"): the commands in progress, and the executions waiting for a run
// to end before they are recorded. It owns that state and its lock; it
// reaches the conversation only through the agent loop and the current
// store.
type Shell struct {
	agent  *agent.Agent                                                      // the loop whose conversation records the executions
	env    *tool.Env                                                         // the tools' environment: the working directory
	shell  *bash.Shell                                                       // the shell the bash tool uses too (the session's services')
	store  func() *session.Manager                                           // the current session store
	hooks  func(context.Context, *agent.UserBashEvent) *agent.UserBashResult // user_bash hooks
	closed func() bool                                                       // the session is closed
	bg     *sync.WaitGroup                                                   // the session's background work, which Close waits for
	bgCtx  context.Context                                                   // cancelled when the session stops its background work

	mu      sync.Mutex
	runs    map[int]context.CancelFunc // commands in progress
	next    int                        // key of the next one
	pending []*message.BashExecution   // executions waiting for the run to end
}

// Execute runs a command the user typed ("!cmd"; "!!cmd" with
// excludeFromContext) in the session's shell — the one the bash tool uses,
// so directory changes and variables are shared — and records it in the
// session as a bash execution message, which the model sees from its next
// request unless excludeFromContext. A command run while the agent is
// working is recorded when the run ends. Abort cancels it; it times
// out after 300 seconds.
func (sh *Shell) Execute(ctx context.Context, command string, excludeFromContext bool) (BashResult, error) {
	if sh.closed() {
		return BashResult{}, errClosed
	}
	ctx, cancel := context.WithCancel(ctx)
	sh.mu.Lock()
	id := sh.next
	sh.next++
	if sh.runs == nil {
		sh.runs = map[int]context.CancelFunc{}
	}
	sh.runs[id] = cancel
	sh.mu.Unlock()
	defer func() {
		cancel()
		sh.mu.Lock()
		delete(sh.runs, id)
		sh.mu.Unlock()
	}()

	if hr := sh.hooks(ctx, &agent.UserBashEvent{Command: command, ExcludeFromContext: excludeFromContext, Cwd: sh.env.Cwd}); hr != nil {
		res := BashResult{Output: hr.Output, ExitCode: hr.ExitCode, Cancelled: hr.Cancelled, Truncated: hr.Truncated,
			TotalLines: int64(countLines(hr.Output)), TotalBytes: int64(len(hr.Output)), OutputLines: int64(countLines(hr.Output)), OutputBytes: int64(len(hr.Output))}
		sh.record(&message.BashExecution{Command: command, Output: res.Output, ExitCode: res.ExitCode, Cancelled: res.Cancelled,
			Truncated: res.Truncated, Timestamp: nowMillis(), ExcludeFromContext: excludeFromContext})
		return res, nil
	}
	o, err := bash.Run(ctx, sh.env, sh.shell, command, bash.RunOptions{Timeout: userBashTimeout})
	if err != nil {
		return BashResult{}, err
	}
	res := bashResult(o)
	m := &message.BashExecution{
		Command: command, Output: res.Output, ExitCode: res.ExitCode, Cancelled: res.Cancelled,
		Truncated: res.Truncated, Timestamp: nowMillis(), ExcludeFromContext: excludeFromContext,
	}
	if res.Truncated {
		m.Meta, _ = json.Marshal(map[string]any{"truncation": bash.TruncationOf(o)})
	}
	sh.record(m)
	return res, nil
}

// bashResult maps a finished command to a BashResult.
func bashResult(o bash.Outcome) BashResult {
	out := o.Output
	res := BashResult{
		Output: out.Output, Truncated: out.Truncated, TotalLines: out.TotalLines, TotalBytes: out.TotalBytes,
		OutputBytes: int64(len(out.Output)), ArtifactID: out.ArtifactID,
	}
	if tr := bash.TruncationOf(o); tr != nil {
		res.OutputLines = tr.OutputLines
	} else {
		res.OutputLines = out.TotalLines
	}
	r := o.Result
	switch {
	case r.TimedOut:
		res.Cancelled = true
		res.Output = fmt.Sprintf("[Command timed out after %d seconds]\n", bash.DefaultTimeout) + res.Output
	case r.Cancelled:
		res.Cancelled = true
	case r.Exited:
		code := r.ExitCode
		res.ExitCode = &code
	}
	return res
}

// Abort cancels the user's shell commands in progress.
func (sh *Shell) Abort() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for _, cancel := range sh.runs {
		cancel()
	}
}

// IsRunning reports whether a user's shell command is in progress.
func (sh *Shell) IsRunning() bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return len(sh.runs) > 0
}

// record adds a bash execution message to the conversation and the
// session file; during a run it waits for the run to end, so that it never
// lands between a tool call and its result.
func (sh *Shell) record(m *message.BashExecution) {
	sh.mu.Lock()
	sh.pending = append(sh.pending, m)
	sh.mu.Unlock()
	sh.flush()
}

// flush records the queued bash execution messages unless a run
// is in progress (then the end of the run flushes them).
func (sh *Shell) flush() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.pending) == 0 {
		return
	}
	msgs := sh.agent.Messages()
	for _, m := range sh.pending {
		msgs = append(msgs, m)
	}
	if err := sh.agent.SetMessages(msgs); err != nil {
		return // a run is in progress
	}
	store := sh.store()
	for _, m := range sh.pending {
		_, _ = store.AppendMessage(m) // errors are latched by the store
	}
	sh.pending = nil
}

// flushAfterRun records queued bash messages once the run that ended is
// over.
func (sh *Shell) flushAfterRun() {
	sh.mu.Lock()
	pending := len(sh.pending) > 0
	sh.mu.Unlock()
	if !pending {
		return
	}
	sh.bg.Add(1)
	go func() {
		defer sh.bg.Done()
		if sh.agent.WaitIdle(sh.bgCtx) == nil {
			sh.flush()
		}
	}()
}

// countLines counts the lines of s (a last line without a newline counts).
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
