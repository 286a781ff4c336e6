package agentsession

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/message"
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
	Cancelled   bool   `json:"cancelled"`            // aborted (AbortBash) or timed out
	Truncated   bool   `json:"truncated"`            // Output is the tail of a longer output
	TotalLines  int64  `json:"totalLines"`           // lines of the whole output
	TotalBytes  int64  `json:"totalBytes"`           // bytes of the whole output
	OutputLines int64  `json:"outputLines"`          // lines in Output
	OutputBytes int64  `json:"outputBytes"`          // bytes in Output
	ArtifactID  string `json:"artifactId,omitempty"` // the artifact holding the whole output
}

// ExecuteBash runs a command the user typed ("!cmd"; "!!cmd" with
// excludeFromContext) in the session's shell — the one the bash tool uses,
// so directory changes and variables are shared — and records it in the
// session as a bash execution message, which the model sees from its next
// request unless excludeFromContext. A command run while the agent is
// working is recorded when the run ends. AbortBash cancels it; it times
// out after 300 seconds.
func (s *Session) ExecuteBash(ctx context.Context, command string, excludeFromContext bool) (BashResult, error) {
	if s.isClosed() {
		return BashResult{}, errClosed
	}
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	id := s.nextBash
	s.nextBash++
	if s.bashRuns == nil {
		s.bashRuns = map[int]context.CancelFunc{}
	}
	s.bashRuns[id] = cancel
	s.mu.Unlock()
	defer func() {
		cancel()
		s.mu.Lock()
		delete(s.bashRuns, id)
		s.mu.Unlock()
	}()

	if hr := s.userBashHooks(ctx, &agent.UserBashEvent{Command: command, ExcludeFromContext: excludeFromContext, Cwd: s.toolEnv.Cwd}); hr != nil {
		res := BashResult{Output: hr.Output, ExitCode: hr.ExitCode, Cancelled: hr.Cancelled, Truncated: hr.Truncated,
			TotalLines: int64(countLines(hr.Output)), TotalBytes: int64(len(hr.Output)), OutputLines: int64(countLines(hr.Output)), OutputBytes: int64(len(hr.Output))}
		s.recordBash(&message.BashExecution{Command: command, Output: res.Output, ExitCode: res.ExitCode, Cancelled: res.Cancelled,
			Truncated: res.Truncated, Timestamp: nowMillis(), ExcludeFromContext: excludeFromContext})
		return res, nil
	}
	o, err := bash.Run(ctx, s.toolEnv, s.svc.Shell, command, bash.RunOptions{Timeout: userBashTimeout})
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
	s.recordBash(m)
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

// AbortBash cancels the user's shell commands in progress.
func (s *Session) AbortBash() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.bashRuns {
		cancel()
	}
}

// IsBashRunning reports whether a user's shell command is in progress.
func (s *Session) IsBashRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bashRuns) > 0
}

// recordBash adds a bash execution message to the conversation and the
// session file; during a run it waits for the run to end, so that it never
// lands between a tool call and its result.
func (s *Session) recordBash(m *message.BashExecution) {
	s.mu.Lock()
	s.pendingBash = append(s.pendingBash, m)
	s.mu.Unlock()
	s.flushPendingBash()
}

// flushPendingBash records the queued bash execution messages unless a run
// is in progress (then the end of the run flushes them).
func (s *Session) flushPendingBash() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pendingBash) == 0 {
		return
	}
	msgs := s.agent.Messages()
	for _, m := range s.pendingBash {
		msgs = append(msgs, m)
	}
	if err := s.agent.SetMessages(msgs); err != nil {
		return // a run is in progress
	}
	for _, m := range s.pendingBash {
		_, _ = s.store.AppendMessage(m) // errors are latched by the store
	}
	s.pendingBash = nil
}

// flushAfterRun records queued bash messages once the run that ended is
// over.
func (s *Session) flushAfterRun() {
	s.mu.Lock()
	pending := len(s.pendingBash) > 0
	s.mu.Unlock()
	if !pending {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		if s.agent.WaitIdle(s.bgCtx) == nil {
			s.flushPendingBash()
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
