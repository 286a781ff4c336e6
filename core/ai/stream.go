package ai

import (
	"context"
	"iter"
	"strings"
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
// Pushing never blocks on the consumer, and a slow consumer does not make
// the queue grow with the number of deltas: a delta merges into the
// previous event while that one is an undelivered delta of the same block,
// whether it is still held back by the throttle or already queued. The
// queue therefore holds at most about one event per block boundary.
//
// # Ownership
//
// The fields before mu are set when the stream is made, before it is
// shared, and never change; mu guards the fields after it, all of the
// queue state. A stream fed by an Emitter also shares mu with it: the
// Emitter changes its message (source) only while holding mu, and the
// stream takes each event's Partial snapshot (a Clone of that message)
// under mu, once per event, when the event is sealed: when another event is
// queued after it or when Next hands it out. A snapshot is the consumer's
// from then on; tool-call arguments in it are parsed by Next, outside the
// lock, so the producer never waits for a parse.
type Stream struct {
	after    afterFunc         // timer factory (tests replace it)
	interval time.Duration     // how long a delta is held back
	source   *AssistantMessage // the Emitter's message snapshots are cloned from; nil for plain Push
	done     chan struct{}     // closed (under mu) when the terminal event is pushed

	mu       sync.Mutex
	queue    []Event           // events Next may return, oldest first
	notify   chan struct{}     // closed and replaced when the queue grows or the stream ends
	pending  *Event            // delta held back for up to interval (not visible to Next)
	tailOpen bool              // the queue's last event is unsealed (see open)
	text     strings.Builder   // merged text of the open delta (plain Push)
	start    int               // where the open delta's text begins in its block (with a source)
	timer    stopper           // flushes pending after interval
	held     uint64            // counts held deltas, so a late timer cannot flush a newer one
	ended    bool              // the terminal event was pushed
	final    *AssistantMessage // message of the terminal event
}

// The open event is the last event pushed while it is unsealed: the pending
// delta, or else the queue's last event when tailOpen. An open delta's
// merged text is in Stream.text, or, with a source, the tail of its block's
// text from Stream.start (the Emitter only appends to a block while a delta
// of it is open, and seals it before any other change of that text). An
// open event of a stream with a source has no Partial yet. Sealing fixes
// both.

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
// latest Partial); they keep merging while undelivered, also after the
// interval. Any other event first seals the held delta. A terminal event
// ends the stream; pushes after it are ignored. Push is for producers
// without an Emitter; the stream of an Emitter is fed by the Emitter only.
func (s *Stream) Push(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	if ev.Type.IsDelta() {
		if s.mergeLocked(ev) {
			return
		}
		s.sealLocked()
		s.holdLocked(ev)
		return
	}
	s.sealLocked()
	s.appendLocked(ev)
}

// openLocked returns the open event, or nil.
func (s *Stream) openLocked() *Event {
	if s.pending != nil {
		return s.pending
	}
	if s.tailOpen {
		return &s.queue[len(s.queue)-1]
	}
	return nil
}

// mergeLocked appends delta ev to the open event when that is an
// undelivered delta of the same type and content index.
func (s *Stream) mergeLocked(ev Event) bool {
	o := s.openLocked()
	if o == nil || o.Type != ev.Type || o.ContentIndex != ev.ContentIndex {
		return false
	}
	if s.source == nil {
		s.text.WriteString(ev.Delta)
		o.Partial = ev.Partial
	}
	return true
}

// holdLocked makes delta ev the pending event and arms the flush timer.
// There must be no open event; with a source, ev.Delta must already be
// appended to its block.
func (s *Stream) holdLocked(ev Event) {
	if s.source != nil {
		s.start = len(blockText(s.source, ev.ContentIndex)) - len(ev.Delta)
	} else {
		s.text.WriteString(ev.Delta)
	}
	e := ev
	s.pending = &e
	s.held++
	held := s.held
	s.timer = s.after(s.interval, func() { s.flushTimer(held) })
}

// appendLocked queues ev as the open event (sealed at once when terminal).
// There must be no open event.
func (s *Stream) appendLocked(ev Event) {
	s.queue = append(s.queue, ev)
	s.tailOpen = !ev.Type.IsTerminal()
	if ev.Type.IsTerminal() {
		s.ended = true
		s.final = ev.Message
		close(s.done)
	}
	s.wakeLocked()
}

func (s *Stream) wakeLocked() {
	close(s.notify)
	s.notify = make(chan struct{})
}

// sealLocked seals the open event: a pending delta is queued, its merged
// text and (with a source) its snapshot fixed.
func (s *Stream) sealLocked() {
	if p := s.pending; p != nil {
		if s.timer != nil {
			s.timer.Stop()
			s.timer = nil
		}
		s.pending = nil
		s.fixLocked(p)
		s.queue = append(s.queue, *p)
		s.wakeLocked()
		return
	}
	if s.tailOpen {
		s.fixLocked(&s.queue[len(s.queue)-1])
		s.tailOpen = false
	}
}

// fixLocked gives the open event ev its final delta text and snapshot.
func (s *Stream) fixLocked(ev *Event) {
	switch {
	case !ev.Type.IsDelta():
	case s.source != nil:
		if t := blockText(s.source, ev.ContentIndex); s.start >= 0 && s.start <= len(t) {
			ev.Delta = t[s.start:]
		}
	default:
		ev.Delta = s.text.String()
		s.text = strings.Builder{}
	}
	if s.source != nil {
		ev.Partial = s.source.Clone()
	}
}

// blockText returns the growing text of block idx of m: text, thinking or
// argument JSON.
func blockText(m *AssistantMessage, idx int) string {
	if idx < 0 || idx >= len(m.Content) {
		return ""
	}
	switch b := m.Content[idx].(type) {
	case *TextContent:
		return b.Text
	case *ThinkingContent:
		return b.Thinking
	case *ToolCall:
		return b.PartialJSON
	}
	return ""
}

// flushTimer makes held delta number held visible when its interval ran
// out; it stays open, so further deltas of its block merge into it until it
// is read.
func (s *Stream) flushTimer(held uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil || s.held != held {
		return // sealed already (a timer that fired while being stopped)
	}
	s.timer = nil
	s.queue = append(s.queue, *s.pending)
	s.pending = nil
	s.tailOpen = true
	s.wakeLocked()
}

// Next returns the next event, waiting for one. It returns false after the
// terminal event has been returned, or when ctx is done first.
func (s *Stream) Next(ctx context.Context) (Event, bool) {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			if len(s.queue) == 1 && s.tailOpen {
				s.fixLocked(&s.queue[0])
				s.tailOpen = false
			}
			ev := s.queue[0]
			s.queue[0] = Event{}
			s.queue = s.queue[1:]
			own := s.source != nil
			s.mu.Unlock()
			if own {
				parseOpenArguments(ev.Partial)
			}
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

// parseOpenArguments parses the streamed argument text of the calls still
// open in snapshot m (which the caller owns).
func parseOpenArguments(m *AssistantMessage) {
	if m == nil {
		return
	}
	for _, b := range m.Content {
		if tc, ok := b.(*ToolCall); ok && tc.PartialJSON != "" {
			tc.Arguments = ParseStreamingJSON(tc.PartialJSON)
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
