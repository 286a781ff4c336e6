package mockllm

import "testing"

func TestTurnSummary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		turn Turn
		want string
	}{
		{Turn{}, "empty reply; stop auto"},
		{Turn{Status: 429, RetryAfter: "2"}, "HTTP 429 retry-after 2"},
		{Turn{Blocks: []Block{Text("a"), ToolCall("read", `{"p":1}`)}, Stop: "toolUse", StallAfter: 2},
			`text "a", toolCall read {"p":1}; stop toolUse; stall after 2 frames`},
		{Turn{StreamError: true, DisconnectAfter: 3}, "empty reply; stop auto; stream error; disconnect after 3 frames"},
	} {
		if got := tc.turn.Summary(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
