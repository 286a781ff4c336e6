package agent

import (
	"github.com/gopi-agent/gopi/core/ai"
)

// MissingResultText is the tool result the loop supplies for a call that has
// none in the history (the process died while the tool ran, or the history
// was edited), since providers refuse a call without a result.
const MissingResultText = "No result was recorded for this tool call (the session ended before it finished)."

// providerMessages makes a converted history safe to send: assistant
// messages that failed or were aborted with nothing in them are dropped with
// the tool results that answer their calls; a failed or aborted message that
// has content keeps it, minus calls without results; every remaining tool
// call gets a result (MissingResultText when none was recorded), placed
// right after its assistant message; results that answer no call are
// dropped. Messages of other roles pass unchanged. The input is not
// modified.
func providerMessages(in []ai.Message) []ai.Message {
	// Which call ids have results anywhere in the history.
	results := map[string]*ai.ToolResultMessage{}
	for _, m := range in {
		if r, ok := m.(*ai.ToolResultMessage); ok {
			results[r.ToolCallID] = r
		}
	}
	out := make([]ai.Message, 0, len(in))
	emitted := map[string]bool{}
	for i := 0; i < len(in); i++ {
		switch m := in[i].(type) {
		case *ai.AssistantMessage:
			failed := m.StopReason == ai.StopReasonError || m.StopReason == ai.StopReasonAborted
			if failed {
				m = keptPartOfFailed(m, results)
				if m == nil {
					continue
				}
			}
			out = append(out, m)
			for _, tc := range m.ToolCalls() {
				if r, ok := results[tc.ID]; ok && !emitted[tc.ID] {
					out = append(out, r)
				} else if !ok {
					out = append(out, &ai.ToolResultMessage{ToolCallID: tc.ID, ToolName: tc.Name, Content: ai.ContentList{ai.Text(MissingResultText)}, IsError: true, Timestamp: m.Timestamp})
				}
				emitted[tc.ID] = true
			}
		case *ai.ToolResultMessage:
			// Results are placed after their call above; anything left is
			// an orphan.
			continue
		default:
			out = append(out, m)
		}
	}
	return out
}

// keptPartOfFailed returns what of a failed or aborted assistant message is
// worth sending: its text and thinking and the calls that have results, or
// nil when nothing is left.
func keptPartOfFailed(m *ai.AssistantMessage, results map[string]*ai.ToolResultMessage) *ai.AssistantMessage {
	var kept ai.ContentList
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			if b.Text != "" {
				kept = append(kept, b)
			}
		case *ai.ThinkingContent:
			// Signatures of an interrupted stream are incomplete; providers
			// reject them. Drop thinking of failed messages.
		case *ai.ToolCall:
			if _, ok := results[b.ID]; ok {
				kept = append(kept, b)
			}
		}
	}
	if len(kept) == 0 {
		return nil
	}
	c := *m
	c.Content = kept
	return &c
}
