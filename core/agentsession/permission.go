package agentsession

import (
	"context"
	"fmt"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/core/tool"
)

// newGate returns the session's permission gate: its parent's for a
// subagent (one gate for the whole tree), else one built from the mode's
// options.
func newGate(opts Options) (*permission.Gate, error) {
	if opts.gate != nil {
		return opts.gate, nil
	}
	return permission.New(opts.Permissions)
}

// withGate returns the hooks the loop runs: the session's, then the
// permission gate's, last, so that only calls every other hook let
// through are put to the user.
func (s *Session) withGate(hooks []*agent.Hooks) []*agent.Hooks {
	if !s.perm.Active() {
		return hooks
	}
	return append(append([]*agent.Hooks(nil), hooks...), &agent.Hooks{
		Name:       "permissions",
		ToolCall:   s.checkPermission,
		ToolResult: s.reportPermitted,
	})
}

// permissionRequest describes a call to the gate.
func (s *Session) permissionRequest(info *agent.ToolCallInfo) permission.Request {
	req := permission.Request{CallID: info.ID, Tool: info.Name, Args: info.Args, Agent: s.position.ID}
	if info.Tool != nil {
		req.Access = tool.CallAccess(info.Tool, info.Args)
	} else {
		req.Access = tool.Access{Tool: info.Name, Writes: true}
	}
	return req
}

// checkPermission is the gate's tool_call hook: a refused call is blocked
// with the refusal's text as its result.
func (s *Session) checkPermission(ctx context.Context, info *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
	if err := s.perm.Check(ctx, s.permissionRequest(info)); err != nil {
		return &agent.ToolCallDecision{Block: true, Reason: err.Error()}, nil
	}
	return nil, nil
}

// reportPermitted is the gate's tool_result hook: it tells the gate how
// an allowed call ended.
func (s *Session) reportPermitted(_ context.Context, info *agent.ToolCallInfo, res *tool.Result) (*agent.ToolResultOverride, error) {
	s.perm.Done(permission.Request{CallID: info.ID, Tool: info.Name, Agent: s.position.ID}, res)
	return nil, nil
}

// callThrough runs a call made from inside another tool (eval's
// JavaScript tool.<name>) through the loop's hooks: the session's
// tool_call hooks, plan mode's guard and the permission gate see it as a
// call of the model's (the registry's Services.CallThrough).
func (s *Session) callThrough(ctx context.Context, name string, t tool.Tool, args tool.Args, run func() (*tool.Result, error)) (*tool.Result, error) {
	id := fmt.Sprintf("bridge-%d", s.bridgeCalls.Add(1))
	return agent.RunOutsideLoop(ctx, s.agent, &agent.ToolCallInfo{ID: id, Name: name, Args: args, Tool: t}, run)
}
