package agentsession

import (
	"context"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// The model stops with unfinished tasks: it is reminded (with the
// todo_reminder event) up to todo.reminders.max times; the plan survives a
// resume; finishing it announces todo_auto_clear.
func TestTodoRemindersAndResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(
		callTool("t1", "todo_write", `{"ops":[{"op":"init","list":[{"phase":"Work","items":["write code","run tests"]}]}]}`),
		say("I wrote the plan."), // stops with two open tasks
		say("still not done"),    // reminder 1
		say("really stopping"),   // reminder 2
		say("and again"),         // reminder 3 (the default maximum)
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	var reminders []TodoReminder
	s.Subscribe(func(ev agent.Event) {
		if r, ok := ev.(TodoReminder); ok {
			reminders = append(reminders, r)
		}
	})
	if err := s.Prompt(context.Background(), "plan it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(reminders) != 3 || reminders[0].Attempt != 1 || reminders[2].MaxAttempts != 3 || len(reminders[0].Todos) != 2 {
		t.Fatalf("reminders %+v", reminders)
	}
	reqs := f.script.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(mustText(last.Messages[len(last.Messages)-1]), "unfinished task") {
		t.Fatalf("the reminder did not reach the model")
	}
	path := s.SessionFile()
	s.Close()

	store, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s2 := f.open(Options{Models: reg, Store: store, NoTitle: true})
	if got := s2.Tools().TodoPhases(); len(got) != 1 || len(got[0].Tasks) != 2 {
		t.Fatalf("plan after resume: %+v", got)
	}
	var cleared bool
	s2.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(TodoAutoClear); ok {
			cleared = true
		}
	})
	f.script.add(callTool("t2", "todo_write", `{"ops":[{"op":"done"}]}`), say("all done"))
	if err := s2.Prompt(context.Background(), "finish", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if !cleared {
		t.Fatal("no todo_auto_clear")
	}
}

func mustText(m ai.Message) string {
	if u, ok := m.(*ai.UserMessage); ok {
		var b strings.Builder
		for _, c := range u.Content {
			if t, ok := c.(*ai.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		return b.String()
	}
	return ""
}
