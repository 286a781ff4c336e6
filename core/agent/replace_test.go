package agent

import (
	"context"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// A turn_end subscriber that replaces the conversation changes what the
// run's next model call sends (a checkpoint's rewind).
func TestReplaceMessagesAtTurnEnd(t *testing.T) {
	t.Parallel()
	s := newScript(t, calls("c", call{"probe", `{}`}), say("done"))
	a, _ := newAgent(t, s, &fakeTool{name: "probe"})
	a.Subscribe(func(ev Event) {
		if te, ok := ev.(TurnEnd); ok && te.TurnIndex == 0 {
			a.ReplaceMessages([]ai.Message{user("kept"), user("report")})
		}
	})
	if err := a.Prompt(context.Background(), user("explore")); err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := userTexts(reqs[1].Messages); len(got) != 2 || got[0] != "kept" || got[1] != "report" || len(reqs[1].Messages) != 2 {
		t.Fatalf("second request: %s", mustJSON(t, reqs[1].Messages))
	}
	msgs := a.Messages()
	if len(msgs) != 3 || msgs[2].(*ai.AssistantMessage).Text() != "done" {
		t.Fatalf("conversation after the run: %s", mustJSON(t, msgs))
	}
}
