package ai

import (
	"context"
	"iter"
	"sync"
	"time"
)

// DeltaInterval is how long a delta event may wait to be merged with the
// next ones before it is delivered.
const DeltaInterval = 50 * time.Millisecond

// Stream delivers the events of one response and its final message.
//
// The producer (a Provider, usually through an Emitter) calls Push; the
// consumer ranges over Events or calls Next, and may call Result at any time.
// Pushing never blocks: the queue is unbounded.
type Stream struct {
	mu       sync.Mutex
	queue    []Event
	notify   chan struct{} // closed and replaced when the queue grows or the stream ends
	pending  *Event        // delta waiting to be merged
	timer    stopper       // flushes pending after DeltaInterval
	after    afterFunc     // timer factory (tests replace it)
	interval time.Duration
	ended    bool              // the terminal event was pushed
	final    *AssistantMessage // message of the terminal event
	done     chan struct{}     // closed when the terminal event is pushed
}

type stopper interface{ Stop() bool }

type afterFunc func(d time.Duration, f func()) stopper

func realAfter(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// NewStream returns an empty stream with the standard delta throttle.
func NewStream() *Stream { return newStream(realAfter, DeltaInterval) }

func newStream(after afterFunc, interval time.Duration) *Stream {
	return &Stream{notify: make(chan struct{}), done: make(chan struct{}), after: after, interval: interval}
}

// Push adds an event. Delta events are held up to DeltaInterval and merged
// with following deltas of the same type and content index (keeping the
// latest partial snapshot); any other event first flushes the held delta.
// A terminal event ends the stream; pushes after it are ignored.
func (s *Stream) Push(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	if ev.Type.IsDelta() {
		if p := s.pending; p != nil {
			if p.Type == ev.Type && p.ContentIndex == ev.ContentIndex {
				p.Delta += ev.Delta
				p.Partial = ev.Partial
				return
			}
			s.flushLocked()
		}
		e := ev
		s.pending = &e
		s.timer = s.after(s.interval, s.flushTimer)
		return
	}
	s.flushLocked()
	s.appendLocked(ev)
	if ev.Type.IsTerminal() {
		s.ended = true
		s.final = ev.Message
		close(s.done)
	}
}

// flushTimer delivers a held delta when its interval ran out.
func (s *Stream) flushTimer() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
}

func (s *Stream) flushLocked() {
	if s.pending == nil {
		return
	}
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	ev := *s.pending
	s.pending = nil
	s.appendLocked(ev)
}

func (s *Stream) appendLocked(ev Event) {
	s.queue = append(s.queue, ev)
	close(s.notify)
	s.notify = make(chan struct{})
}

// Next returns the next event, waiting for one. It returns false after the
// terminal event has been returned, or when ctx is done first.
func (s *Stream) Next(ctx context.Context) (Event, bool) {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			ev := s.queue[0]
			s.queue[0] = Event{}
			s.queue = s.queue[1:]
			s.mu.Unlock()
			return ev, true
		}
		if s.ended {
			s.mu.Unlock()
			return Event{}, false
		}
		wait := s.notify
		s.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return Event{}, false
		}
	}
}

// Events iterates over the events until the terminal one (inclusive).
func (s *Stream) Events() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for {
			ev, ok := s.Next(context.Background())
			if !ok || !yield(ev) {
				return
			}
		}
	}
}

// Result waits for the terminal event and returns the final message (nil if
// ctx is done first). It does not consume events.
func (s *Stream) Result(ctx context.Context) *AssistantMessage {
	select {
	case <-s.done:
		return s.final
	case <-ctx.Done():
		return nil
	}
}

// Done is closed when the terminal event has been pushed.
func (s *Stream) Done() <-chan struct{} { return s.done }

// Collect drains the stream and returns every event and the final message.
func (s *Stream) Collect() ([]Event, *AssistantMessage) {
	var evs []Event
	for ev := range s.Events() {
		evs = append(evs, ev)
	}
	return evs, s.final
}
