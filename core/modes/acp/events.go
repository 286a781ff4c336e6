package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tools/write"
)

// onEvent turns the session's events into session/update notifications.
// Events of one tool call come from that call's goroutine, so this runs
// concurrently for calls of one batch; the call table is locked.
func (ss *session) onEvent(ev agent.Event) {
	switch e := ev.(type) {
	case agent.MessageUpdate:
		ss.onStream(e)
	case agent.ToolExecutionStart:
		ss.onToolStart(e)
	case agent.ToolExecutionUpdate:
		if e.PartialResult != nil {
			if c := resultContent(e.PartialResult.Content); len(c) > 0 {
				ss.srv.send(ss.id, sdk.UpdateToolCall(sdk.ToolCallId(e.ToolCallID), sdk.WithUpdateContent(c)))
			}
		}
	case agent.ToolExecutionEnd:
		ss.onToolEnd(e)
	}
}

// onStream forwards the assistant's text and thinking, and announces tool
// calls as the model writes them.
func (ss *session) onStream(e agent.MessageUpdate) {
	ev := e.AssistantMessageEvent
	switch ev.Type {
	case ai.EventTextDelta:
		if ev.Delta != "" {
			ss.srv.send(ss.id, sdk.UpdateAgentMessageText(ev.Delta))
		}
	case ai.EventThinkingDelta:
		if ev.Delta != "" {
			ss.srv.send(ss.id, sdk.UpdateAgentThoughtText(ev.Delta))
		}
	case ai.EventToolCallStart:
		if ev.Partial == nil || ev.ContentIndex >= len(ev.Partial.Content) {
			return
		}
		tc, ok := ev.Partial.Content[ev.ContentIndex].(*ai.ToolCall)
		if !ok || tc.ID == "" {
			return
		}
		if ss.track(tc.ID, tc.Name) {
			ss.srv.send(ss.id, sdk.StartToolCall(sdk.ToolCallId(tc.ID), toolLabel(tc.Name), sdk.WithStartKind(toolKind(tc.Name)), sdk.WithStartStatus(sdk.ToolCallStatusPending)))
		}
	case ai.EventToolCallEnd:
		if tc := ev.ToolCall; tc != nil && tc.ID != "" {
			if ss.track(tc.ID, tc.Name) {
				ss.srv.send(ss.id, sdk.StartToolCall(sdk.ToolCallId(tc.ID), toolLabel(tc.Name), sdk.WithStartKind(toolKind(tc.Name)), sdk.WithStartStatus(sdk.ToolCallStatusPending)))
			}
			paths := callPaths(ss.sess.Tools().Env(), tc.Name, tc.Arguments)
			ss.srv.send(ss.id, sdk.UpdateToolCall(sdk.ToolCallId(tc.ID),
				sdk.WithUpdateTitle(toolTitle(tc.Name, tc.Arguments, paths)),
				sdk.WithUpdateLocations(locations(paths)),
				sdk.WithUpdateRawInput(tc.Arguments)))
		}
	}
}

// track records a tool call of the turn; it reports whether the call is
// new (and must be announced).
func (ss *session) track(id, name string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if _, ok := ss.calls[id]; ok {
		return false
	}
	ss.calls[id] = &toolCall{id: id, name: name}
	return true
}

// onToolStart marks a call in progress, unless it waits for the editor's
// permission first (the permission hook marks it when allowed).
func (ss *session) onToolStart(e agent.ToolExecutionStart) {
	isNew := ss.track(e.ToolCallID, e.ToolName)
	ss.mu.Lock()
	c := ss.calls[e.ToolCallID]
	c.args, c.started = e.Args, true
	ss.mu.Unlock()
	id := sdk.ToolCallId(e.ToolCallID)
	if isNew {
		paths := callPaths(ss.sess.Tools().Env(), e.ToolName, e.Args)
		ss.srv.send(ss.id, sdk.StartToolCall(id, toolTitle(e.ToolName, e.Args, paths),
			sdk.WithStartKind(toolKind(e.ToolName)), sdk.WithStartStatus(sdk.ToolCallStatusPending),
			sdk.WithStartLocations(locations(paths)), sdk.WithStartRawInput(e.Args)))
	}
	if !ss.needsPermission(e.ToolName, e.Args) {
		ss.srv.send(ss.id, sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
	}
}

// onToolEnd reports a call's outcome: completed or failed, with the
// result's text, and for edit and write the diff of every file written.
func (ss *session) onToolEnd(e agent.ToolExecutionEnd) {
	ss.track(e.ToolCallID, e.ToolName)
	ss.mu.Lock()
	ss.calls[e.ToolCallID].finished = true
	ss.mu.Unlock()
	var changes map[string]fileChange
	switch e.ToolName {
	case "edit":
		// edit is exclusive: every write recorded since it started is its own.
		changes = ss.files.takeAll()
	case "write":
		if d, ok := e.Result.Details.(*write.Details); ok {
			if c, ok := ss.files.take(d.Path); ok {
				changes = map[string]fileChange{d.Path: c}
			}
		}
	}
	status := sdk.ToolCallStatusCompleted
	if e.IsError {
		status = sdk.ToolCallStatusFailed
	}
	var content []sdk.ToolCallContent
	if !e.IsError && len(changes) > 0 {
		content = diffContent(changes)
	} else if e.Result != nil {
		content = resultContent(e.Result.Content)
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status)}
	if len(content) > 0 {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	ss.srv.send(ss.id, sdk.UpdateToolCall(sdk.ToolCallId(e.ToolCallID), opts...))
}

// endTurn fails the calls of the turn that never finished (the run was
// cancelled or failed while they were pending) and forgets the turn's
// calls.
func (ss *session) endTurn() {
	ss.mu.Lock()
	var open []string
	for id, c := range ss.calls {
		if !c.finished {
			open = append(open, id)
		}
	}
	ss.calls = map[string]*toolCall{}
	ss.mu.Unlock()
	for _, id := range open {
		ss.srv.send(ss.id, sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
	}
	ss.files.takeAll()
}
