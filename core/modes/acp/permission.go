package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/core/tool"
)

// permissionSetting is the setting that lists the calls gopi acp asks the
// editor about.
const permissionSetting = "acp.requirePermission"

// optionKinds are the protocol's kinds of the gate's answers; the option
// ids are the answers themselves.
var optionKinds = map[permission.Answer]sdk.PermissionOptionKind{
	permission.AllowOnce:    sdk.PermissionOptionKindAllowOnce,
	permission.AllowAlways:  sdk.PermissionOptionKindAllowAlways,
	permission.RejectOnce:   sdk.PermissionOptionKindRejectOnce,
	permission.RejectAlways: sdk.PermissionOptionKindRejectAlways,
}

// editorAsker puts the session's permission questions to the editor with
// session/request_permission: the call as a tool call (title, kind,
// locations, raw input) and the four answers. The session runtime's gate
// decides which calls need it, remembers the "always" answers and runs
// the questions of subagents through here too.
type editorAsker struct{ ss *session }

var (
	_ permission.Asker    = editorAsker{}
	_ permission.Observer = editorAsker{}
)

// Ask sends the request and waits for the editor's answer or ctx (the
// library then withdraws the request with $/cancel_request).
func (a editorAsker) Ask(ctx context.Context, req permission.Request) (permission.Answer, error) {
	ss := a.ss
	paths := callPaths(ss.sess.Tools().Env(), req.Tool, req.Args)
	title := toolTitle(req.Tool, req.Args, paths)
	if req.Access.Summary != "" {
		title = req.Access.Summary
	}
	if req.Agent != "" {
		title = fmt.Sprintf("Subagent %s: %s", req.Agent, title)
	}
	kind := toolKind(req.Tool)
	var options []sdk.PermissionOption
	for _, c := range permission.Choices(req) {
		options = append(options, sdk.PermissionOption{OptionId: sdk.PermissionOptionId(c.Answer), Name: c.Label, Kind: optionKinds[c.Answer]})
	}
	resp, err := ss.srv.peer().RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(ss.id),
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: cardID(req),
			Title:      sdk.Ptr(title),
			Kind:       &kind,
			Status:     sdk.Ptr(sdk.ToolCallStatusPending),
			Locations:  locations(paths),
			RawInput:   req.Args,
			// The whole call, which the title may cut (a long command).
			Content: []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(permission.Describe(req)))},
		},
		Options: options,
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("the editor did not answer: %s", requestMessage(err))
	}
	o := resp.Outcome
	if o.Cancelled != nil {
		return "", permission.ErrCancelled
	}
	answer := permission.RejectOnce
	if o.Selected != nil {
		if _, ok := optionKinds[permission.Answer(o.Selected.OptionId)]; ok {
			answer = permission.Answer(o.Selected.OptionId)
		}
	}
	if answer.Allows() {
		ss.srv.send(ss.id, sdk.UpdateToolCall(cardID(req), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
	}
	return answer, nil
}

// Settled closes the card of a subagent's call the editor was asked
// about (the calls of the session itself are reported by their events).
func (a editorAsker) Settled(req permission.Request, res *tool.Result) {
	if req.Agent == "" || res == nil {
		return
	}
	status := sdk.ToolCallStatusCompleted
	if res.IsError {
		status = sdk.ToolCallStatusFailed
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status)}
	if c := resultContent(res.Content); len(c) > 0 {
		opts = append(opts, sdk.WithUpdateContent(c))
	}
	a.ss.srv.send(a.ss.id, sdk.UpdateToolCall(cardID(req), opts...))
}

// cardID is the editor's id of the call a request is about: the call's own
// for the session's calls (the editor has seen them), prefixed with the
// subagent's task id for a subagent's (they are shown only when asked
// about, and ids need not be unique across agents).
func cardID(req permission.Request) sdk.ToolCallId {
	if req.Agent == "" {
		return sdk.ToolCallId(req.CallID)
	}
	return sdk.ToolCallId(req.Agent + "/" + req.CallID)
}

// needsPermission reports whether a call of the session will wait for the
// editor's answer (its in_progress status waits for it).
func (ss *session) needsPermission(name string, args map[string]any) bool {
	for _, t := range ss.sess.Tools().Offered() {
		if t.Definition().Name == name {
			return ss.sess.Tools().Permissions().Asks(tool.CallAccess(t, args))
		}
	}
	return false
}
