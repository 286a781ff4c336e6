package agent

import (
	"slices"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// TestQueuesDelivery checks what each queue hands out per delivery point
// in both modes, and that takeAny prefers steering.
func TestQueuesDelivery(t *testing.T) {
	t.Parallel()
	q := newQueues(Options{FollowUpMode: AllAtOnce})
	if got := q.modes(); got != (Modes{Steering: OneAtATime, FollowUp: AllAtOnce, Interrupt: InterruptImmediate}) {
		t.Fatalf("modes %+v", got)
	}
	s1, s2, f1, f2 := user("s1"), user("s2"), user("f1"), user("f2")
	q.steer(s1)
	q.steer(s2)
	q.followUpWith(f1)
	q.followUpWith(f2)
	if s, f := q.list(); !slices.Equal(s, []ai.Message{s1, s2}) || !slices.Equal(f, []ai.Message{f1, f2}) {
		t.Fatalf("list %v %v", s, f)
	}
	if s, f := q.list(); len(s) != 2 || len(f) != 2 {
		t.Fatalf("list took messages: %d %d left", len(s), len(f))
	}
	if got, steered := q.takeAny(); !steered || !slices.Equal(got, []ai.Message{s1}) {
		t.Fatalf("takeAny: %v %v", got, steered)
	}
	if got := q.takeSteering(); !slices.Equal(got, []ai.Message{s2}) {
		t.Fatalf("takeSteering: %v", got)
	}
	if got, steered := q.takeAny(); steered || !slices.Equal(got, []ai.Message{f1, f2}) {
		t.Fatalf("takeAny without steering: %v %v", got, steered)
	}
	if got, _ := q.takeAny(); len(got) != 0 {
		t.Fatalf("takeAny on empty queues: %v", got)
	}

	q.setModes(Modes{Interrupt: InterruptWait})
	if got := q.modes(); got != (Modes{Steering: OneAtATime, FollowUp: AllAtOnce, Interrupt: InterruptWait}) || q.interruptImmediate() {
		t.Fatalf("after setting the interrupt mode only: %+v", got)
	}
	q.steer(s1)
	q.followUpWith(f1)
	if s, f := q.clear(); !slices.Equal(s, []ai.Message{s1}) || !slices.Equal(f, []ai.Message{f1}) {
		t.Fatalf("clear: %v %v", s, f)
	}
	if s, f := q.list(); len(s) != 0 || len(f) != 0 {
		t.Fatalf("%d and %d messages left after clear", len(s), len(f))
	}
}

// TestQueuesForced checks the order of forced tool choices, including one
// put back in front.
func TestQueuesForced(t *testing.T) {
	t.Parallel()
	var q queues
	if q.takeForced() != nil {
		t.Fatal("a forced choice from an empty queue")
	}
	q.force(forcedChoice{tool: "a"})
	q.force(forcedChoice{tool: "b"})
	f := q.takeForced()
	if f == nil || f.tool != "a" {
		t.Fatalf("takeForced: %+v", f)
	}
	q.force(forcedChoice{tool: "c"})
	q.putBackForced(*f)
	if got := q.forcedTools(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("forced tools %v", got)
	}
}
