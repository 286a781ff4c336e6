package acp

import (
	"context"
	"fmt"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/tools/resolve"
)

// Permission option ids offered to the editor.
const (
	optAllow       = "allow"
	optAllowAlways = "allow_always"
	optReject      = "reject"
)

// permissions says which calls need the editor's approval: the tools the
// acp.requirePermission setting lists, minus those the user allowed for
// the rest of the session.
type permissions struct {
	mu      sync.Mutex
	require map[string]bool
	always  map[string]bool
}

func newPermissions(names []string) *permissions {
	p := &permissions{require: map[string]bool{}, always: map[string]bool{}}
	for _, n := range names {
		p.require[n] = true
	}
	return p
}

// subject returns the tool whose permission a call needs ("" for none):
// the call's own tool, or for resolve applying a preview, the tool that
// staged it (ast_edit only previews; resolve writes).
func (p *permissions) subject(name string, args map[string]any, queue *resolve.Queue) string {
	if name == "resolve" {
		if str(args, "action") != "apply" {
			return ""
		}
		if a := queue.Peek(); a != nil {
			name = a.SourceTool
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.require[name] || p.always[name] {
		return ""
	}
	return name
}

// allowAlways stops asking for a tool in this session.
func (p *permissions) allowAlways(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.always[name] = true
}

// needsPermission reports whether a call waits for the editor's answer.
func (ss *session) needsPermission(name string, args map[string]any) bool {
	return ss.perm.subject(name, args, resolve.For(ss.sess.ToolEnv())) != ""
}

// toolCallHook is the agent's ToolCall hook: a call that needs permission
// is shown to the editor with session/request_permission and runs only
// when the user allows it; a rejection blocks it and tells the model.
func (ss *session) toolCallHook(ctx context.Context, info *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
	args := map[string]any(info.Args)
	subject := ss.perm.subject(info.Name, args, resolve.For(ss.sess.ToolEnv()))
	if subject == "" {
		return nil, nil
	}
	paths := callPaths(ss.sess.ToolEnv(), info.Name, args)
	title := toolTitle(info.Name, args, paths)
	if info.Name == "resolve" {
		if a := resolve.For(ss.sess.ToolEnv()).Peek(); a != nil {
			title = "Apply " + a.Label
		}
	}
	kind := toolKind(info.Name)
	req := sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(ss.id),
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: sdk.ToolCallId(info.ID),
			Title:      sdk.Ptr(title),
			Kind:       &kind,
			Status:     sdk.Ptr(sdk.ToolCallStatusPending),
			Locations:  locations(paths),
			RawInput:   args,
		},
		Options: []sdk.PermissionOption{
			{OptionId: optAllow, Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: optAllowAlways, Name: fmt.Sprintf("Always allow %s in this session", subject), Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: optReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	}
	resp, err := ss.srv.peer().RequestPermission(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return &agent.ToolCallDecision{Block: true, Reason: "The turn was cancelled before the user answered the permission request; the call was not run."}, nil
		}
		return &agent.ToolCallDecision{Block: true, Reason: fmt.Sprintf("The editor did not answer the permission request for this %s call (%s); it was not run.", info.Name, requestMessage(err))}, nil
	}
	switch o := resp.Outcome; {
	case o.Cancelled != nil:
		return &agent.ToolCallDecision{Block: true, Reason: "The turn was cancelled before the user answered the permission request; the call was not run."}, nil
	case o.Selected != nil && (o.Selected.OptionId == optAllow || o.Selected.OptionId == optAllowAlways):
		if o.Selected.OptionId == optAllowAlways {
			ss.perm.allowAlways(subject)
		}
		ss.srv.send(ss.id, sdk.UpdateToolCall(sdk.ToolCallId(info.ID), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
		return nil, nil
	}
	return &agent.ToolCallDecision{Block: true, Reason: fmt.Sprintf("The user rejected this %s call in the editor; it was not run. Do not retry it: ask the user how to proceed.", info.Name)}, nil
}
