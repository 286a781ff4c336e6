package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func asst(stop ai.StopReason, blocks ...ai.Content) *ai.AssistantMessage {
	return &ai.AssistantMessage{Content: blocks, StopReason: stop}
}

func writeCall(id string) *ai.ToolCall {
	return &ai.ToolCall{ID: id, Name: "write", Arguments: map[string]any{"path": "a"}}
}

func result(id, text string) *ai.ToolResultMessage {
	return &ai.ToolResultMessage{ToolCallID: id, ToolName: "write", Content: ai.ContentList{ai.Text(text)}}
}

// describe renders messages as role[ids]:text for assertions.
func describe(msgs []ai.Message) string {
	var parts []string
	for _, m := range msgs {
		switch m := m.(type) {
		case *ai.UserMessage:
			parts = append(parts, "user:"+m.Content[0].(*ai.TextContent).Text)
		case *ai.AssistantMessage:
			s := "assistant"
			if m.StopReason == ai.StopReasonError || m.StopReason == ai.StopReasonAborted {
				s += "(" + string(m.StopReason) + ")"
			}
			for _, b := range m.Content {
				switch b := b.(type) {
				case *ai.TextContent:
					s += ":" + b.Text
				case *ai.ThinkingContent:
					s += ":thinking"
				case *ai.ToolCall:
					s += ":call " + b.ID
				}
			}
			parts = append(parts, s)
		case *ai.ToolResultMessage:
			parts = append(parts, "result "+m.ToolCallID+":"+m.Content[0].(*ai.TextContent).Text)
		}
	}
	return strings.Join(parts, " | ")
}

// checkSendable fails unless msgs is what providers accept: every call
// has exactly one result right after its assistant message (results of
// one message in call order), no call id twice, no result elsewhere, no
// failed assistant message with thinking.
func checkSendable(t *testing.T, msgs []ai.Message) {
	t.Helper()
	seen := map[string]bool{}
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case *ai.ToolResultMessage:
			t.Fatalf("message %d: a result that does not follow its call: %s", i, describe(msgs))
		case *ai.AssistantMessage:
			if m.StopReason == ai.StopReasonError || m.StopReason == ai.StopReasonAborted {
				for _, b := range m.Content {
					if _, ok := b.(*ai.ThinkingContent); ok {
						t.Fatalf("message %d: thinking of a failed message is sent: %s", i, describe(msgs))
					}
				}
				if len(m.Content) == 0 {
					t.Fatalf("message %d: an empty failed message is sent", i)
				}
			}
			for _, tc := range m.ToolCalls() {
				sent, _, _ := strings.Cut(tc.ID, "|") // what OpenAI Responses sends
				if seen[sent] {
					t.Fatalf("call id %s sent twice: %s", sent, describe(msgs))
				}
				seen[sent] = true
				i++
				var r *ai.ToolResultMessage
				if i < len(msgs) {
					r, _ = msgs[i].(*ai.ToolResultMessage)
				}
				if r == nil || r.ToolCallID != tc.ID {
					t.Fatalf("call %s is not followed by its result: %s", tc.ID, describe(msgs))
				}
			}
		}
	}
}

func TestProviderMessagesRepairsHistory(t *testing.T) {
	t.Parallel()
	user := func(s string) *ai.UserMessage { return &ai.UserMessage{Content: ai.ContentList{ai.Text(s)}} }
	cut := func() *ai.AssistantMessage {
		return asst(ai.StopReasonError, ai.Text("writing"), &ai.ThinkingContent{Thinking: "t", ThinkingSignature: "partial"}, writeCall("call_x"))
	}
	for _, tc := range []struct {
		name string
		in   []ai.Message
		want string
	}{{
		// The session: a stream cut inside the call's arguments,
		// retried three times, then given up; only the last attempt
		// has a result (the loop's failure result).
		name: "retried attempts",
		in:   []ai.Message{user("go"), cut(), cut(), cut(), cut(), result("call_x", "not run"), user("again")},
		want: "user:go | assistant(error):writing:call call_x | result call_x:not run | user:again",
	}, {
		name: "ids reused by a server",
		in: []ai.Message{user("go"), asst(ai.StopReasonToolUse, writeCall("0")), result("0", "one"),
			asst(ai.StopReasonToolUse, writeCall("0")), result("0", "two"), asst(ai.StopReasonStop, ai.Text("done"))},
		want: "user:go | assistant:call 0 | result 0:one | assistant:call r2_0 | result r2_0:two | assistant:done",
	}, {
		name: "two calls with one id in a message",
		in:   []ai.Message{asst(ai.StopReasonToolUse, writeCall("a"), writeCall("a")), result("a", "one"), result("a", "two")},
		want: "assistant:call a:call r2_a | result a:one | result r2_a:two",
	}, {
		name: "Responses ids keep their call part",
		in: []ai.Message{asst(ai.StopReasonToolUse, writeCall("call_1|fc_1")), result("call_1|fc_1", "one"),
			asst(ai.StopReasonToolUse, writeCall("call_1|fc_1")), result("call_1|fc_1", "two")},
		want: "assistant:call call_1|fc_1 | result call_1|fc_1:one | assistant:call r2_call_1 | result r2_call_1:two",
	}, {
		name: "Responses ids that differ in their item part only",
		in: []ai.Message{asst(ai.StopReasonToolUse, writeCall("call_1|fc_1")), result("call_1|fc_1", "one"),
			asst(ai.StopReasonToolUse, writeCall("call_1|fc_2")), result("call_1|fc_2", "two")},
		want: "assistant:call call_1|fc_1 | result call_1|fc_1:one | assistant:call r2_call_1 | result r2_call_1:two",
	}, {
		name: "missing, orphan, duplicate and misplaced results",
		in: []ai.Message{result("ghost", "orphan"), asst(ai.StopReasonToolUse, writeCall("a"), writeCall("b")),
			user("steer"), result("b", "b1"), result("b", "b2")},
		want: "assistant:call a:call b | result a:" + MissingResultText + " | result b:b1 | user:steer",
	}, {
		name: "a failed message keeps its text, not its unanswered call",
		in:   []ai.Message{user("go"), cut(), user("again")},
		want: "user:go | assistant(error):writing | user:again",
	}, {
		name: "an aborted message with nothing sendable is left out",
		in:   []ai.Message{user("go"), asst(ai.StopReasonAborted, writeCall("x")), user("again")},
		want: "user:go | user:again",
	}, {
		name: "a failed answer replaced by a recovery",
		in:   []ai.Message{user("go"), asst(ai.StopReasonError, ai.Text("partial")), asst(ai.StopReasonStop, ai.Text("full"))},
		want: "user:go | assistant:full",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			before := describe(tc.in)
			got := providerMessages(tc.in)
			if d := describe(got); d != tc.want {
				t.Errorf("got  %s\nwant %s", d, tc.want)
			}
			checkSendable(t, got)
			if describe(tc.in) != before {
				t.Error("the input was modified")
			}
		})
	}
}

// FuzzProviderMessages builds a history from the input (users, answers
// with calls, failed and aborted answers, results, in any order, with ids
// from a small set so they collide) and checks that what would be sent is
// what providers accept, and that every user message and every successful
// answer's text is kept in order.
func FuzzProviderMessages(f *testing.F) {
	f.Add([]byte{0, 0x12, 0x12, 0x12, 0x12, 0x31, 0})
	f.Add([]byte{0x21, 0x31, 0x21, 0x31, 0x3f, 0x40})
	f.Add([]byte{0x55, 0x31, 0x32, 0x31, 0, 0x02, 0x22})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256 {
			return
		}
		var in []ai.Message
		var wantKept []string
		ids := []string{"a", "b", "c|x", "c|y"}
		for n, op := range data {
			id := ids[int(op)&3]
			switch op >> 4 {
			case 0:
				text := fmt.Sprintf("u%d", n)
				in = append(in, &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}})
				wantKept = append(wantKept, "user:"+text)
			case 1, 2:
				stop := ai.StopReasonToolUse
				if op>>4 == 1 {
					stop = ai.StopReasonError
				}
				m := asst(stop, ai.Text(fmt.Sprintf("a%d", n)))
				for k := 0; k < int(op>>2&3); k++ {
					m.Content = append(m.Content, writeCall(ids[(int(op)+k)&3]))
				}
				in = append(in, m)
			case 3:
				in = append(in, result(id, fmt.Sprintf("r%d", n)))
			case 4:
				in = append(in, asst(ai.StopReasonAborted, &ai.ThinkingContent{Thinking: "t", ThinkingSignature: "s"}, writeCall(id)))
			default:
				text := fmt.Sprintf("s%d", n)
				in = append(in, asst(ai.StopReasonStop, ai.Text(text)))
				wantKept = append(wantKept, "assistant:"+text)
			}
		}
		got := providerMessages(in)
		checkSendable(t, got)
		var kept []string
		for _, m := range got {
			switch m := m.(type) {
			case *ai.UserMessage:
				kept = append(kept, "user:"+m.Content[0].(*ai.TextContent).Text)
			case *ai.AssistantMessage:
				if t := m.Text(); strings.HasPrefix(t, "s") {
					kept = append(kept, "assistant:"+t)
				}
			}
		}
		if strings.Join(kept, " ") != strings.Join(wantKept, " ") {
			t.Fatalf("kept %q, want %q", kept, wantKept)
		}
	})
}
