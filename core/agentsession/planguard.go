package agentsession

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
)

// withPlanGuard adds plan mode's tool_call hook after hooks: while
// planning, structural rewrites are refused as writes outside the plan
// file are (write and edit check their own paths, see tool.Env).
func (s *Session) withPlanGuard(hooks []*agent.Hooks) []*agent.Hooks {
	return append(append([]*agent.Hooks(nil), hooks...), &agent.Hooks{Name: "plan mode", ToolCall: s.planGuard})
}

// planGuard blocks ast_edit, and resolve applying a staged change, while
// plan mode is on.
func (s *Session) planGuard(_ context.Context, info *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
	pm := s.toolEnv.PlanMode()
	if pm == nil {
		return nil, nil
	}
	action, _ := info.Args["action"].(string)
	if info.Name == "ast_edit" || info.Name == "resolve" && action == "apply" {
		return &agent.ToolCallDecision{Block: true, Reason: "Plan mode: only the plan file may be modified (" + pm.File + ")."}, nil
	}
	return nil, nil
}
