package agentsession

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/compaction"
)

// The compaction hook points of agent.Hooks, run in the order the hooks
// were given. A hook that fails (an error or a panic) is reported as an
// extension_error event and treated as if it had not answered.

func (s *Session) hookFailed(h *agent.Hooks, point string, err error) {
	s.emit(agent.HookError{Hook: h.Name, Event: point, Error: err.Error()})
}

// beforeCompactHooks runs SessionBeforeCompact: a cancel stops at once;
// otherwise the latest result that supplies a compaction wins.
func (s *Session) beforeCompactHooks(ctx context.Context, ev *compaction.BeforeCompactEvent) (cancel bool, supplied *compaction.Result) {
	for _, h := range s.opts.Hooks {
		if h.SessionBeforeCompact == nil {
			continue
		}
		var r *compaction.BeforeCompactResult
		if err := agent.Guard(func() (err error) { r, err = h.SessionBeforeCompact(ctx, ev); return }); err != nil {
			s.hookFailed(h, "session_before_compact", err)
			continue
		}
		if r == nil {
			continue
		}
		if r.Cancel {
			return true, nil
		}
		if r.Compaction != nil {
			supplied = r.Compaction
		}
	}
	return false, supplied
}

// compactingHooks runs SessionCompacting; the latest non-nil result wins.
func (s *Session) compactingHooks(ctx context.Context, ev *compaction.CompactingEvent) *compaction.CompactingResult {
	var out *compaction.CompactingResult
	for _, h := range s.opts.Hooks {
		if h.SessionCompacting == nil {
			continue
		}
		var r *compaction.CompactingResult
		if err := agent.Guard(func() (err error) { r, err = h.SessionCompacting(ctx, ev); return }); err != nil {
			s.hookFailed(h, "session.compacting", err)
			continue
		}
		if r != nil {
			out = r
		}
	}
	return out
}

// compactHooks runs SessionCompact.
func (s *Session) compactHooks(ctx context.Context, ev *compaction.CompactEvent) {
	for _, h := range s.opts.Hooks {
		if h.SessionCompact == nil {
			continue
		}
		if err := agent.Guard(func() error { h.SessionCompact(ctx, ev); return nil }); err != nil {
			s.hookFailed(h, "session_compact", err)
		}
	}
}

// ReportHookError reports a failure of an extension's handler that ran
// outside a hook point (an observer, a timer): listeners get the same
// extension_error event as for a failing hook.
func (s *Session) ReportHookError(extensionPath, event string, err error) {
	s.emit(agent.HookError{Hook: extensionPath, Event: event, Error: err.Error()})
}
