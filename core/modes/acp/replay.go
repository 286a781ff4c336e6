package acp

import (
	"encoding/json"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tools/edit"
	"github.com/gopi-agent/gopi/core/tools/write"
)

// replay sends the session's conversation as session/update
// notifications (session/load): user messages as user_message_chunk, the
// assistant's text and thinking as chunks, each tool call as a tool_call
// and its result as a tool_call_update with its final status, edits with
// the diff their result recorded.
func (ss *session) replay() {
	args := map[string]map[string]any{} // tool call arguments by id, for the results
	for _, m := range ss.sess.Messages() {
		switch m := m.(type) {
		case *ai.AssistantMessage:
			ss.replayAssistant(m, args)
		case *ai.ToolResultMessage:
			ss.replayResult(m, args[m.ToolCallID])
		case *message.Custom:
			if m.Display {
				ss.replayUser(m)
			}
		default:
			ss.replayUser(m)
		}
	}
}

// replayUser sends a user message (or what the model saw of another kind
// of message) as user_message_chunk updates.
func (ss *session) replayUser(m ai.Message) {
	for _, c := range message.ToLLM([]ai.Message{m}) {
		u, ok := c.(*ai.UserMessage)
		if !ok {
			continue
		}
		for _, b := range u.Content {
			switch b := b.(type) {
			case *ai.TextContent:
				if b.Text != "" {
					ss.srv.send(ss.id, sdk.UpdateUserMessageText(b.Text))
				}
			case *ai.ImageContent:
				ss.srv.send(ss.id, sdk.UpdateUserMessage(sdk.ImageBlock(b.Data, b.MIMEType)))
			}
		}
	}
}

// replayAssistant sends an answer's text, thinking and tool calls.
func (ss *session) replayAssistant(m *ai.AssistantMessage, args map[string]map[string]any) {
	sent := false
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			if b.Text != "" {
				ss.srv.send(ss.id, sdk.UpdateAgentMessageText(b.Text))
				sent = true
			}
		case *ai.ThinkingContent:
			if b.Thinking != "" && !b.Redacted {
				ss.srv.send(ss.id, sdk.UpdateAgentThoughtText(b.Thinking))
			}
		case *ai.ToolCall:
			args[b.ID] = b.Arguments
			paths := callPaths(ss.sess.Tools().Env(), b.Name, b.Arguments)
			ss.srv.send(ss.id, sdk.StartToolCall(sdk.ToolCallId(b.ID), toolTitle(b.Name, b.Arguments, paths),
				sdk.WithStartKind(toolKind(b.Name)), sdk.WithStartStatus(sdk.ToolCallStatusPending),
				sdk.WithStartLocations(locations(paths)), sdk.WithStartRawInput(b.Arguments)))
			sent = true
		}
	}
	if !sent && m.ErrorMessage != "" && m.StopReason == ai.StopReasonError {
		ss.srv.send(ss.id, sdk.UpdateAgentMessageText("Error: "+m.ErrorMessage))
	}
}

// replayResult sends a tool call's final status with its diff (edit,
// write) or its text.
func (ss *session) replayResult(m *ai.ToolResultMessage, args map[string]any) {
	status := sdk.ToolCallStatusCompleted
	if m.IsError {
		status = sdk.ToolCallStatusFailed
	}
	var content []sdk.ToolCallContent
	if !m.IsError {
		content = ss.storedDiffs(m, args)
	}
	if len(content) == 0 {
		content = resultContent(m.Content)
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status)}
	if len(content) > 0 {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	ss.srv.send(ss.id, sdk.UpdateToolCall(sdk.ToolCallId(m.ToolCallID), opts...))
}

// storedDiffs rebuilds the diffs of a stored edit or write result: an
// edit's details keep a unified diff per file (its hunks become the old
// and new text, without the unchanged lines between hunks); a write's
// arguments keep the new content.
func (ss *session) storedDiffs(m *ai.ToolResultMessage, args map[string]any) []sdk.ToolCallContent {
	env := ss.sess.Tools().Env()
	switch m.ToolName {
	case "edit":
		var d edit.Details
		if !decodeDetails(m.Details, &d) {
			return nil
		}
		files := d.PerFileResults
		if len(files) == 0 && d.Diff != "" {
			files = []edit.FileResult{{Path: d.Path, Diff: d.Diff}}
		}
		var out []sdk.ToolCallContent
		for _, f := range files {
			if f.Diff == "" || f.Path == "" {
				continue
			}
			old, new := hunkTexts(f.Diff)
			out = append(out, sdk.ToolDiffContent(env.Resolve(f.Path), new, old))
		}
		return out
	case "write":
		var d write.Details
		content, ok := args["content"].(string)
		if !ok || !decodeDetails(m.Details, &d) || d.Path == "" {
			return nil
		}
		return []sdk.ToolCallContent{sdk.ToolDiffContent(d.Path, content)}
	}
	return nil
}

// decodeDetails converts stored details (decoded JSON, or the tool's own
// type in this process) into v.
func decodeDetails(details any, v any) bool {
	if details == nil {
		return false
	}
	data, err := json.Marshal(details)
	if err != nil {
		return false
	}
	return json.Unmarshal(data, v) == nil
}

// hunkTexts splits a unified diff into the old and the new side of its
// hunks: context and deleted lines, context and inserted lines.
func hunkTexts(unified string) (old, new string) {
	var o, n strings.Builder
	for _, line := range strings.Split(unified, "\n") {
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "@@"), strings.HasPrefix(line, `\`):
		case strings.HasPrefix(line, "-"):
			o.WriteString(line[1:] + "\n")
		case strings.HasPrefix(line, "+"):
			n.WriteString(line[1:] + "\n")
		case strings.HasPrefix(line, " "):
			o.WriteString(line[1:] + "\n")
			n.WriteString(line[1:] + "\n")
		}
	}
	return o.String(), n.String()
}
