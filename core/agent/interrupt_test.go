package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// streamUntilStopped streams text pieces, then waits for the stream to be
// cancelled (as a provider would keep going) and ends aborted.
func streamUntilStopped(pieces ...string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		for _, p := range pieces {
			em.TextDelta(i, p)
		}
		<-ctx.Done()
		em.Fail(ctx, req.Model, ctx.Err())
	}
}

func TestInterrupterRestartsTheResponse(t *testing.T) {
	t.Parallel()
	for _, keep := range []bool{false, true} {
		s := newScript(t, streamUntilStopped("fine so far, ", "then BA", "D words"), say("corrected"))
		fired := 0
		a := New(Options{Model: testModel, Stream: s.stream, Now: func() time.Time { return time.UnixMilli(1) },
			Interrupter: func(ev ai.Event) *StreamInterrupt {
				if ev.Type != ai.EventTextDelta || ev.Partial == nil || fired > 0 {
					return nil
				}
				if txt := ev.Partial.Content[0].(*ai.TextContent).Text; strings.Contains(txt, "BAD") {
					fired++
					return &StreamInterrupt{Messages: []ai.Message{user("rule: no BAD")}, KeepPartial: keep}
				}
				return nil
			}})
		rec := &recorder{}
		a.Subscribe(rec.add)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if err := a.Prompt(ctx, user("go")); err != nil {
			t.Fatal(err)
		}
		cancel()
		msgs := a.Messages()
		var roles []string
		for _, m := range msgs {
			r := string(m.MessageRole())
			if am, ok := m.(*ai.AssistantMessage); ok {
				r += ":" + string(am.StopReason)
			}
			roles = append(roles, r)
		}
		want := "user,user,assistant:stop"
		if keep {
			want = "user,assistant:aborted,user,assistant:stop"
		}
		if got := strings.Join(roles, ","); got != want {
			t.Errorf("keep=%v: conversation %s, want %s", keep, got, want)
		}
		if got := userTexts(msgs); strings.Join(got, "|") != "go|rule: no BAD" {
			t.Errorf("keep=%v: user texts %v", keep, got)
		}
		reqs := s.requests()
		if len(reqs) != 2 {
			t.Fatalf("keep=%v: %d requests, want 2", keep, len(reqs))
		}
		second := userTexts(reqs[1].Messages)
		if strings.Join(second, "|") != "go|rule: no BAD" {
			t.Errorf("keep=%v: second request's user messages %v", keep, second)
		}
		// Front ends saw the stopped message end, and the run continued in
		// the same turn.
		ends, turns := 0, 0
		for _, ev := range rec.events() {
			switch e := ev.(type) {
			case MessageEnd:
				if am, ok := e.Message.(*ai.AssistantMessage); ok && am.StopReason == ai.StopReasonAborted {
					ends++
				}
			case TurnStart:
				turns++
			}
		}
		if ends != 1 || turns != 1 {
			t.Errorf("keep=%v: aborted message_end %d, turns %d; want 1, 1", keep, ends, turns)
		}
	}
}
