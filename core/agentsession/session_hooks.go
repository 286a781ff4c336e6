package agentsession

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/compaction"
)

// The tree, branch and switch hook points of agent.Hooks, run in the order
// the hooks were given; a failing hook is reported (extension_error) and
// treated as if it had not answered (see compact_hooks.go).

// beforeTreeHooks runs SessionBeforeTree: a cancel stops at once;
// otherwise the latest result with a summary supplies it.
func (s *Session) beforeTreeHooks(ctx context.Context, ev *compaction.BeforeTreeEvent) (cancel bool, supplied *compaction.TreeSummary) {
	for _, h := range s.opts.Hooks {
		if h.SessionBeforeTree == nil {
			continue
		}
		var r *compaction.BeforeTreeResult
		if err := agent.Guard(func() (err error) { r, err = h.SessionBeforeTree(ctx, ev); return }); err != nil {
			s.hookFailed(h, "session_before_tree", err)
			continue
		}
		if r == nil {
			continue
		}
		if r.Cancel {
			return true, nil
		}
		if r.Summary != nil {
			supplied = r.Summary
		}
	}
	return false, supplied
}

// treeHooks runs SessionTree.
func (s *Session) treeHooks(ctx context.Context, ev *compaction.TreeEvent) {
	for _, h := range s.opts.Hooks {
		if h.SessionTree == nil {
			continue
		}
		if err := agent.Guard(func() error { h.SessionTree(ctx, ev); return nil }); err != nil {
			s.hookFailed(h, "session_tree", err)
		}
	}
}

// beforeBranchHooks runs SessionBeforeBranch: a cancel stops at once;
// skip is set when any hook asks to keep the conversation.
func (s *Session) beforeBranchHooks(ctx context.Context, ev *agent.BeforeBranchEvent) (cancel, skip bool) {
	for _, h := range s.opts.Hooks {
		if h.SessionBeforeBranch == nil {
			continue
		}
		var r *agent.BeforeBranchResult
		if err := agent.Guard(func() (err error) { r, err = h.SessionBeforeBranch(ctx, ev); return }); err != nil {
			s.hookFailed(h, "session_before_branch", err)
			continue
		}
		if r == nil {
			continue
		}
		if r.Cancel {
			return true, false
		}
		skip = skip || r.SkipConversationRestore
	}
	return false, skip
}

// branchHooks runs SessionBranch.
func (s *Session) branchHooks(ctx context.Context, ev *agent.BranchEvent) {
	for _, h := range s.opts.Hooks {
		if h.SessionBranch == nil {
			continue
		}
		if err := agent.Guard(func() error { h.SessionBranch(ctx, ev); return nil }); err != nil {
			s.hookFailed(h, "session_branch", err)
		}
	}
}

// beforeSwitchHooks runs SessionBeforeSwitch: a cancel stops at once.
func (s *Session) beforeSwitchHooks(ctx context.Context, ev *agent.BeforeSwitchEvent) (cancel bool) {
	for _, h := range s.opts.Hooks {
		if h.SessionBeforeSwitch == nil {
			continue
		}
		var r *agent.BeforeSwitchResult
		if err := agent.Guard(func() (err error) { r, err = h.SessionBeforeSwitch(ctx, ev); return }); err != nil {
			s.hookFailed(h, "session_before_switch", err)
			continue
		}
		if r != nil && r.Cancel {
			return true
		}
	}
	return false
}

// switchHooks runs SessionSwitch.
func (s *Session) switchHooks(ctx context.Context, ev *agent.SwitchEvent) {
	for _, h := range s.opts.Hooks {
		if h.SessionSwitch == nil {
			continue
		}
		if err := agent.Guard(func() error { h.SessionSwitch(ctx, ev); return nil }); err != nil {
			s.hookFailed(h, "session_switch", err)
		}
	}
}

// inputHooks runs Input.
func (s *Session) inputHooks(ctx context.Context, ev *agent.InputEvent) {
	for _, h := range s.opts.Hooks {
		if h.Input == nil {
			continue
		}
		if err := agent.Guard(func() error { h.Input(ctx, ev); return nil }); err != nil {
			s.hookFailed(h, "input", err)
		}
	}
}

// userBashHooks runs UserBash: the first result wins.
func (s *Session) userBashHooks(ctx context.Context, ev *agent.UserBashEvent) *agent.UserBashResult {
	for _, h := range s.opts.Hooks {
		if h.UserBash == nil {
			continue
		}
		var res *agent.UserBashResult
		if err := agent.Guard(func() (err error) { res, err = h.UserBash(ctx, ev); return }); err != nil {
			s.hookFailed(h, "user_bash", err)
			continue
		}
		if res != nil {
			return res
		}
	}
	return nil
}
