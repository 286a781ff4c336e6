package agent

import (
	"context"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// A listener that ends the run after a tool result stops the loop before
// the next model call, without an aborted message; the next run goes on
// normally.
func TestEndRunAfterTurn(t *testing.T) {
	t.Parallel()
	s := newScript(t, calls("a", call{"handoff", `{}`}), say("next run"), say("after the follow-up"))
	a, _ := newAgent(t, s, &fakeTool{name: "handoff"})
	a.Subscribe(func(ev Event) {
		if e, ok := ev.(ToolExecutionEnd); ok && e.ToolName == "handoff" {
			a.EndRunAfterTurn()
		}
	})
	a.FollowUp(user("queued"))
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	if n := len(s.requests()); n != 1 {
		t.Fatalf("%d model calls, want 1", n)
	}
	msgs := a.Messages()
	if _, ok := msgs[len(msgs)-1].(*ai.ToolResultMessage); !ok || len(msgs) != 3 {
		t.Fatalf("conversation ends with %T (%d messages)", msgs[len(msgs)-1], len(msgs))
	}
	if _, follow := a.Queued(); len(follow) != 1 {
		t.Fatalf("the queued follow-up was not kept (%d)", follow)
	}
	a.EndRunAfterTurn() // idle: nothing to end
	if err := a.Continue(context.Background()); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range a.Messages()[3:] {
		if am, ok := m.(*ai.AssistantMessage); ok {
			texts = append(texts, am.Text())
		}
	}
	if len(texts) != 2 || texts[0] != "next run" || texts[1] != "after the follow-up" {
		t.Fatalf("the next run answered %q", texts)
	}
}

// ForceToolChoice("") asks for some tool once: the request says
// "required", and the directive is not put back when the model answers
// without a tool.
func TestForceAnyToolOnce(t *testing.T) {
	t.Parallel()
	s := newScript(t, say("no tool"), say("still none"))
	a, _ := newAgent(t, s)
	a.ForceToolChoice("", "test")
	for _, q := range []string{"one", "two"} {
		if err := a.Prompt(context.Background(), user(q)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.requests()
	if c := reqs[0].ToolChoice; c == nil || c.Mode != ai.ToolChoiceRequired {
		t.Fatalf("first request's tool choice %+v", c)
	}
	if c := reqs[1].ToolChoice; c != nil {
		t.Fatalf("the directive was put back: %+v", c)
	}
}
