package testwait

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntilReturnsOnceTheConditionHolds(t *testing.T) {
	t.Parallel()
	var looks atomic.Int32
	Until(t, "the third look", func() bool { return looks.Add(1) >= 3 })
	if n := looks.Load(); n != 3 {
		t.Fatalf("looked %d times, want 3", n)
	}
}

func TestPollGivesUp(t *testing.T) {
	t.Parallel()
	looks := 0
	if poll(time.Millisecond, func() bool { looks++; return false }) {
		t.Fatal("a condition that never holds was reported as held")
	}
	if looks < 1 {
		t.Fatal("the condition was never looked at")
	}
}

func TestRecv(t *testing.T) {
	t.Parallel()
	ch := make(chan int, 1)
	go func() { ch <- 7; close(ch) }()
	if v, ok := Recv(t, "the value", ch); v != 7 || !ok {
		t.Fatalf("got %d %v, want 7 true", v, ok)
	}
	if v, ok := Recv(t, "the close", ch); v != 0 || ok {
		t.Fatalf("after close: %d %v, want 0 false", v, ok)
	}
}

// deadliner is a testing.TB with a deadline of its own.
type deadliner struct {
	testing.TB
	at time.Time
}

func (d deadliner) Deadline() (time.Time, bool) { return d.at, true }

func TestEndFollowsTheDeadline(t *testing.T) {
	t.Parallel()
	at := time.Now().Add(100 * time.Second)
	if got := end(deadliner{t, at}); got.After(at) || got.Before(at.Add(-20*time.Second)) {
		t.Fatalf("end %v for a deadline at %v", got, at)
	}
	if got := time.Until(Deadline(t)); got <= 0 {
		t.Fatalf("no time left to wait: %v", got)
	}
}
