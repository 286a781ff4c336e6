package ai

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
)

// manualTimer is a flush timer the test fires by hand.
type manualTimer struct {
	mu      sync.Mutex
	f       func()
	stopped bool
}

func (m *manualTimer) Stop() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	was := !m.stopped
	m.stopped = true
	return was
}

type manualClock struct {
	timers []*manualTimer
	waits  []time.Duration // the duration each timer was armed with
}

func (c *manualClock) after(d time.Duration, f func()) stopper {
	t := &manualTimer{f: f}
	c.timers = append(c.timers, t)
	c.waits = append(c.waits, d)
	return t
}

// fire runs the latest timer unless it was stopped (as time.AfterFunc would).
func (c *manualClock) fire() {
	t := c.timers[len(c.timers)-1]
	t.mu.Lock()
	stopped := t.stopped
	t.stopped = true
	t.mu.Unlock()
	if !stopped {
		t.f()
	}
}

// queued returns the events Next could return, an open delta with its
// merged text so far, without sealing anything.
func queued(s *Stream) []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := append([]Event(nil), s.queue...)
	if s.tailOpen && q[len(q)-1].Type.IsDelta() {
		q[len(q)-1].Delta = s.text.String()
	}
	return q
}

func delta(t EventType, idx int, d string) Event {
	return Event{Type: t, ContentIndex: idx, Delta: d, Partial: &AssistantMessage{ResponseID: d}}
}

func TestThrottleMergesSameTypeAndIndex(t *testing.T) {
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	s.Push(Event{Type: EventTextStart})
	s.Push(delta(EventTextDelta, 0, "Hel"))
	s.Push(delta(EventTextDelta, 0, "lo"))
	if got := len(queued(s)); got != 1 {
		t.Fatalf("deltas delivered before the interval: %d events queued", got)
	}
	clk.fire()
	q := queued(s)
	if len(q) != 2 || q[1].Type != EventTextDelta || q[1].Delta != "Hello" {
		t.Fatalf("after the interval got %+v, want one merged delta \"Hello\"", q)
	}
	if q[1].Partial.ResponseID != "lo" {
		t.Errorf("merged delta keeps partial %q, want the latest (\"lo\")", q[1].Partial.ResponseID)
	}
}

// TestThrottleInterval pins the contract's 50 ms window: NewStream arms it,
// and deltas merged into a held one do not re-arm it, so the first delta
// of a run never waits longer than DeltaInterval however fast more arrive.
func TestThrottleInterval(t *testing.T) {
	if DeltaInterval != 50*time.Millisecond {
		t.Fatalf("DeltaInterval = %v, want 50ms", DeltaInterval)
	}
	if s := NewStream(); s.interval != DeltaInterval {
		t.Fatalf("NewStream throttles with %v, want DeltaInterval", s.interval)
	}
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	for _, d := range []string{"a", "b", "c", "d"} {
		s.Push(delta(EventTextDelta, 0, d))
	}
	if len(clk.waits) != 1 || clk.waits[0] != DeltaInterval {
		t.Fatalf("timers armed for a run of 4 mergeable deltas: %v, want one of %v", clk.waits, DeltaInterval)
	}
	clk.fire()
	if ev, ok := s.Next(context.Background()); !ok || ev.Delta != "abcd" {
		t.Fatalf("after the interval Next returned %+v, want \"abcd\"", ev)
	}
	s.Push(delta(EventTextDelta, 0, "e")) // after delivery: a new window
	if len(clk.waits) != 2 || clk.waits[1] != DeltaInterval {
		t.Fatalf("a delta after the delivery armed %v", clk.waits)
	}
	if q := queued(s); len(q) != 0 {
		t.Fatalf("a delta after the delivery is visible before its interval: %+v", q)
	}
	clk.fire()
	q := queued(s)
	if len(q) != 1 || q[0].Delta != "e" {
		t.Fatalf("got %+v, want \"e\"", q)
	}
}

// TestUndeliveredDeltaKeepsMerging: once its interval ran out, a delta the
// consumer has not read yet still takes the deltas of its block, so a
// stalled consumer does not make the queue grow.
func TestUndeliveredDeltaKeepsMerging(t *testing.T) {
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	s.Push(delta(EventTextDelta, 0, "a"))
	clk.fire()
	s.Push(delta(EventTextDelta, 0, "b"))
	s.Push(delta(EventTextDelta, 0, "c"))
	if len(clk.waits) != 1 {
		t.Fatalf("deltas merged into a queued one armed timers: %v", clk.waits)
	}
	s.Push(delta(EventTextDelta, 1, "x")) // another block: not merged
	clk.fire()
	q := queued(s)
	if len(q) != 2 || q[0].Delta != "abc" || q[1].Delta != "x" {
		t.Fatalf("got %+v, want \"abc\" then \"x\"", q)
	}
	if q[0].Partial.ResponseID != "c" {
		t.Errorf("merged delta keeps partial %q, want the latest (\"c\")", q[0].Partial.ResponseID)
	}
}

func TestThrottleDoesNotMergeAcrossIndexOrType(t *testing.T) {
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	s.Push(delta(EventTextDelta, 0, "a"))
	s.Push(delta(EventTextDelta, 1, "b"))     // other index: flushes "a"
	s.Push(delta(EventThinkingDelta, 1, "c")) // other type: flushes "b"
	s.Push(delta(EventThinkingDelta, 1, "d"))
	clk.fire()
	var got []string
	for _, ev := range queued(s) {
		got = append(got, string(ev.Type)+":"+ev.Delta)
	}
	want := []string{"text_delta:a", "text_delta:b", "thinking_delta:cd"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestNonDeltaFlushesPendingFirst(t *testing.T) {
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	s.Push(delta(EventToolCallDelta, 0, `{"a":`))
	s.Push(delta(EventToolCallDelta, 0, `1}`))
	s.Push(Event{Type: EventToolCallStart, ContentIndex: 1})
	q := queued(s)
	if len(q) != 2 || q[0].Type != EventToolCallDelta || q[0].Delta != `{"a":1}` || q[1].Type != EventToolCallStart {
		t.Fatalf("got %+v, want merged delta then toolcall_start", q)
	}
	// The timer of the flushed delta must not deliver anything again.
	clk.fire()
	if len(queued(s)) != 2 {
		t.Fatal("a stopped timer delivered an event")
	}
}

func TestTerminalFlushesAndEnds(t *testing.T) {
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	s.Push(delta(EventTextDelta, 0, "x"))
	final := &AssistantMessage{StopReason: StopReasonStop}
	s.Push(Event{Type: EventDone, Reason: StopReasonStop, Message: final})
	s.Push(delta(EventTextDelta, 0, "ignored"))
	evs, msg := s.Collect()
	if len(evs) != 2 || evs[0].Delta != "x" || evs[1].Type != EventDone {
		t.Fatalf("got %+v", evs)
	}
	if msg != final || s.Result(context.Background()) != final {
		t.Fatal("Result is not the terminal message")
	}
}

func TestRealTimerDeliversWithoutFurtherEvents(t *testing.T) {
	s := NewStream()
	s.Push(delta(EventTextDelta, 0, "a"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ev, ok := s.Next(ctx)
	if !ok || ev.Delta != "a" {
		t.Fatalf("held delta never delivered: %+v %v", ev, ok)
	}
}

func TestConcurrentPushAndConsume(t *testing.T) {
	em, s := NewEmitter(&Model{ID: "m", API: APIAnthropicMessages, Provider: "p"})
	go func() {
		em.Start()
		idx := em.StartText()
		for range 2000 {
			em.TextDelta(idx, "x")
		}
		em.EndText(idx)
		em.Done(nil)
	}()
	var text string
	for ev := range s.Events() {
		if ev.Type == EventTextDelta {
			text += ev.Delta
		}
	}
	if len(text) != 2000 {
		t.Fatalf("got %d bytes of deltas, want 2000", len(text))
	}
	if got := s.Result(context.Background()).Text(); len(got) != 2000 {
		t.Fatalf("final text %d bytes", len(got))
	}
}

func TestEmitterToolCallReparse(t *testing.T) {
	em, s := NewEmitter(nil)
	em.Start()
	idx := em.StartToolCall("t1", "read")
	em.ToolCallDelta(idx, `{"a":1,"b":`)
	if ev := next(t, s, EventToolCallDelta); !reflect.DeepEqual(ev.Partial.Content[idx].(*ToolCall).Arguments, map[string]any{"a": 1.0}) {
		t.Fatalf(`delivered delta {"a":1,"b": has partial arguments %v`, ev.Partial.Content[idx].(*ToolCall).Arguments)
	}
	em.ToolCallDelta(idx, `"x`)
	em.ToolCallDelta(idx, `yz"`)
	ev := next(t, s, EventToolCallDelta)
	if ev.Delta != `"xyz"` || !reflect.DeepEqual(ev.Partial.Content[idx].(*ToolCall).Arguments, map[string]any{"a": 1.0, "b": "xyz"}) {
		t.Fatalf("delivered delta %q has partial arguments %v", ev.Delta, ev.Partial.Content[idx].(*ToolCall).Arguments)
	}
	em.ToolCallDelta(idx, `}`)
	em.EndToolCall(idx)
	em.SetStopReason(StopReasonToolUse)
	em.Done(nil)
	evs, final := s.Collect()
	tc := final.Content[0].(*ToolCall)
	if tc.PartialJSON != "" || tc.Arguments["a"] != 1.0 || tc.Arguments["b"] != "xyz" {
		t.Fatalf("final call %+v", tc)
	}
	last := evs[len(evs)-1]
	if last.Type != EventDone || last.Reason != StopReasonToolUse {
		t.Fatalf("terminal %+v", last)
	}
	for _, ev := range evs {
		if ev.Type == EventToolCallEnd && (ev.ToolCall == nil || ev.ToolCall.Arguments["a"] != 1.0) {
			t.Fatalf("toolcall_end carries %+v", ev.ToolCall)
		}
	}
}

func TestEmitterAbort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	em, s := NewEmitter(nil)
	em.Start()
	em.Fail(ctx, nil, context.Canceled)
	_, final := s.Collect()
	if final.StopReason != StopReasonAborted || final.ErrorMessage != AbortedMessage {
		t.Fatalf("got %s %q", final.StopReason, final.ErrorMessage)
	}
}

func TestEmitterSafetyStopIsError(t *testing.T) {
	em, s := NewEmitter(nil)
	em.Start()
	em.SetStopReason(StopReasonError)
	em.SetErrorMessage("refused")
	em.Done(nil)
	evs, final := s.Collect()
	if evs[len(evs)-1].Type != EventError || final.ErrorMessage != "refused" {
		t.Fatalf("got %+v", evs[len(evs)-1])
	}
}

// next reads the next event, which must be of type want (the real
// throttle delivers a held delta within DeltaInterval).
func next(t *testing.T, s *Stream, want EventType) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		ev, ok := s.Next(ctx)
		if !ok {
			t.Fatalf("no %s event", want)
		}
		if ev.Type == want {
			return ev
		}
	}
}

// TestLateTimerDoesNotFlushNewerDelta: a timer that fired while the
// stream was stopping it (its delta was sealed by another event) must not
// deliver the next held delta before that one's interval.
func TestLateTimerDoesNotFlushNewerDelta(t *testing.T) {
	clk := &manualClock{}
	s := newStream(clk.after, DeltaInterval)
	s.Push(delta(EventTextDelta, 0, "a"))
	s.Push(Event{Type: EventTextEnd})
	s.Push(delta(EventTextDelta, 1, "b"))
	clk.timers[0].f() // the first timer's callback, already running when stopped
	if q := queued(s); len(q) != 2 {
		t.Fatalf("a stale timer flushed the newer delta: %+v", q)
	}
}
