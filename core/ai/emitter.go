package ai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// AbortedMessage is the error text of an aborted request.
const AbortedMessage = "Request was aborted"

// Emitter builds an AssistantMessage while pushing the matching events to a
// Stream. Providers call its methods as the wire events arrive; it keeps the
// partial message, produces the terminal event and, when the provider
// reported no usage, estimates it (see EstimateUsage).
//
// An Emitter is used by one goroutine, the producer. The message it builds
// is shared with its stream: the producer changes it only under the
// stream's lock, and the stream clones it under that lock for the Partial
// snapshot of each delivered event (see Stream). Text, thinking and
// argument text grow in place (amortized O(1) per delta, never a copy of
// what came before), and streamed tool-call arguments are parsed once per
// delivered event and at toolcall_end, not on every delta.
type Emitter struct {
	stream *Stream
	msg    *AssistantMessage        // changed only under stream.mu; the producer reads it freely
	open   map[int]bool             // content indexes whose block has started and not ended
	bufs   map[int]*strings.Builder // growing text of open blocks (text, thinking or argument JSON)
	req    *Request                 // the request, for EstimateUsage; nil when unknown
	ended  bool
}

// NewEmitter starts a message for model and returns the emitter and the
// stream it feeds. It does not push "start"; call Start. Providers use
// NewRequestEmitter, which can estimate a missing usage; NewEmitter leaves a
// missing usage at zero (for failures before a request, and fakes in tests).
func NewEmitter(model *Model) (*Emitter, *Stream) {
	return newEmitter(model, NewStream())
}

// NewRequestEmitter is NewEmitter for req.Model that also keeps req, so
// that Done can estimate the input tokens when the provider reports no
// usage.
func NewRequestEmitter(req *Request) (*Emitter, *Stream) {
	e, s := newEmitter(req.Model, NewStream())
	e.req = req
	return e, s
}

func newEmitter(model *Model, s *Stream) (*Emitter, *Stream) {
	msg := &AssistantMessage{Content: ContentList{}, StopReason: StopReasonStop, Timestamp: time.Now().UnixMilli()}
	if model != nil {
		msg.API, msg.Provider, msg.Model = model.API, model.Provider, model.ID
	}
	s.source = msg
	return &Emitter{stream: s, msg: msg, open: map[int]bool{}, bufs: map[int]*strings.Builder{}}, s
}

// Message returns the message being built. Only the producer goroutine may
// read it while the stream runs (consumers get snapshots in events), and
// nobody may change it.
func (e *Emitter) Message() *AssistantMessage { return e.msg }

// Ended reports whether a terminal event was pushed.
func (e *Emitter) Ended() bool { return e.ended }

// emit applies change to the message and pushes ev, under the stream lock.
// A delta that merges into the stream's open event needs nothing more;
// otherwise the open event is sealed first, so that its snapshot predates
// change.
func (e *Emitter) emit(ev Event, change func()) {
	s := e.stream
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.ended {
		return
	}
	if ev.Type.IsDelta() && s.mergeLocked(ev) {
		change()
		return
	}
	s.sealLocked()
	change()
	if ev.Type.IsDelta() {
		s.holdLocked(ev)
	} else {
		s.appendLocked(ev)
	}
}

// update applies a metadata change (usage, stop reason, ids) to the
// message under the stream lock, without an event. The open event is
// sealed first, so every event's snapshot shows the message as it was when
// the event happened, whenever the consumer reads it.
func (e *Emitter) update(change func()) {
	e.stream.mu.Lock()
	defer e.stream.mu.Unlock()
	e.stream.sealLocked()
	change()
}

// replace is update for a change that does not append to a block's text:
// the open event is sealed first (its delta is the tail of that text).
func (e *Emitter) replace(change func()) {
	e.stream.mu.Lock()
	defer e.stream.mu.Unlock()
	e.stream.sealLocked()
	change()
}

// grow appends delta to the text of the open block at idx and returns the
// whole text (a view of the builder, shared, never copied).
func (e *Emitter) grow(idx int, delta string) string {
	b := e.bufs[idx]
	if b == nil {
		b = &strings.Builder{}
		e.bufs[idx] = b
	}
	b.WriteString(delta)
	return b.String()
}

// closeText ends the growth of the block at idx and returns its text,
// copied when the builder holds much unused capacity (the text lives on in
// the conversation).
func (e *Emitter) closeText(idx int, s string) string {
	b := e.bufs[idx]
	delete(e.bufs, idx)
	delete(e.open, idx)
	if b != nil && b.Cap()-b.Len() > b.Len()/8+64 {
		return strings.Clone(s)
	}
	return s
}

// Start pushes "start".
func (e *Emitter) Start() { e.emit(Event{Type: EventStart}, func() {}) }

// startBlock appends block b and pushes its start event; it returns the
// content index.
func (e *Emitter) startBlock(t EventType, b Content) int {
	idx := len(e.msg.Content)
	if e.ended {
		return idx
	}
	e.emit(Event{Type: t, ContentIndex: idx}, func() { e.msg.Content = append(e.msg.Content, b) })
	e.open[idx] = true
	return idx
}

// StartText opens a text block and returns its content index.
func (e *Emitter) StartText() int { return e.startBlock(EventTextStart, &TextContent{}) }

// TextDelta appends to the text block at idx.
func (e *Emitter) TextDelta(idx int, delta string) {
	t, ok := e.block(idx).(*TextContent)
	if !ok || e.ended {
		return
	}
	e.emit(Event{Type: EventTextDelta, ContentIndex: idx, Delta: delta}, func() { t.Text = e.grow(idx, delta) })
}

// SetTextSignature records a provider id for the text block at idx.
func (e *Emitter) SetTextSignature(idx int, sig string) {
	if t, ok := e.block(idx).(*TextContent); ok {
		e.update(func() { t.TextSignature = sig })
	}
}

// EndText closes the text block at idx.
func (e *Emitter) EndText(idx int) {
	t, ok := e.block(idx).(*TextContent)
	if !ok || !e.open[idx] {
		return
	}
	text := e.closeText(idx, t.Text)
	e.emit(Event{Type: EventTextEnd, ContentIndex: idx, Content: text}, func() { t.Text = text })
}

// StartThinking opens a thinking block and returns its content index.
func (e *Emitter) StartThinking() int { return e.startBlock(EventThinkingStart, &ThinkingContent{}) }

// ThinkingDelta appends to the thinking block at idx.
func (e *Emitter) ThinkingDelta(idx int, delta string) {
	t, ok := e.block(idx).(*ThinkingContent)
	if !ok || e.ended {
		return
	}
	e.emit(Event{Type: EventThinkingDelta, ContentIndex: idx, Delta: delta}, func() { t.Thinking = e.grow(idx, delta) })
}

// AppendThinkingSignature extends the signature of the thinking block at
// idx without pushing an event.
func (e *Emitter) AppendThinkingSignature(idx int, sig string) {
	if t, ok := e.block(idx).(*ThinkingContent); ok {
		e.update(func() { t.ThinkingSignature += sig })
	}
}

// SetThinkingRedacted marks the thinking block at idx as redacted with its
// opaque data as signature.
func (e *Emitter) SetThinkingRedacted(idx int, data string) {
	if t, ok := e.block(idx).(*ThinkingContent); ok {
		e.update(func() {
			t.Redacted = true
			t.ThinkingSignature = data
		})
	}
}

// EndThinking closes the thinking block at idx.
func (e *Emitter) EndThinking(idx int) {
	t, ok := e.block(idx).(*ThinkingContent)
	if !ok || !e.open[idx] {
		return
	}
	text := e.closeText(idx, t.Thinking)
	e.emit(Event{Type: EventThinkingEnd, ContentIndex: idx, Content: text}, func() { t.Thinking = text })
}

// StartToolCall opens a tool-call block and returns its content index.
func (e *Emitter) StartToolCall(id, name string) int {
	return e.startBlock(EventToolCallStart, &ToolCall{ID: id, Name: name, Arguments: map[string]any{}})
}

// ToolCallDelta appends argument JSON text to the call at idx. The text is
// parsed when an event carrying it is delivered (into that event's
// snapshot) and at EndToolCall, not here.
func (e *Emitter) ToolCallDelta(idx int, delta string) {
	t, ok := e.block(idx).(*ToolCall)
	if !ok || e.ended {
		return
	}
	e.emit(Event{Type: EventToolCallDelta, ContentIndex: idx, Delta: delta}, func() { t.PartialJSON = e.grow(idx, delta) })
}

// SetToolCallArguments replaces the accumulated argument text of the call at
// idx (for APIs that send the complete arguments at the end).
func (e *Emitter) SetToolCallArguments(idx int, argsJSON string) {
	t, ok := e.block(idx).(*ToolCall)
	if !ok {
		return
	}
	args := ParseStreamingJSON(argsJSON)
	if e.open[idx] {
		b := &strings.Builder{}
		b.WriteString(argsJSON)
		e.bufs[idx] = b
	}
	e.replace(func() {
		t.PartialJSON = argsJSON
		t.Arguments = args
	})
}

// SetToolCallID changes the id of the call at idx (for APIs that reveal it late).
func (e *Emitter) SetToolCallID(idx int, id string) {
	if t, ok := e.block(idx).(*ToolCall); ok {
		e.update(func() { t.ID = id })
	}
}

// EndToolCall parses the arguments a last time, drops the accumulated text
// and closes the call at idx.
func (e *Emitter) EndToolCall(idx int) {
	t, ok := e.block(idx).(*ToolCall)
	if !ok || !e.open[idx] {
		return
	}
	delete(e.open, idx)
	delete(e.bufs, idx)
	args := t.Arguments
	incomplete := false
	if t.PartialJSON != "" {
		args = ParseStreamingJSON(t.PartialJSON) // outside the lock: the producer's own text
		incomplete = !completeJSON(t.PartialJSON)
	}
	final := ToolCall{ID: t.ID, Name: t.Name, Arguments: args, Incomplete: incomplete}
	e.emit(Event{Type: EventToolCallEnd, ContentIndex: idx, ToolCall: &final}, func() {
		t.Arguments = args
		t.Incomplete = incomplete
		t.PartialJSON = ""
	})
}

// EndOpenBlocks closes every block still open, in index order.
func (e *Emitter) EndOpenBlocks() {
	for idx := range len(e.msg.Content) {
		if !e.open[idx] {
			continue
		}
		switch e.msg.Content[idx].(type) {
		case *TextContent:
			e.EndText(idx)
		case *ThinkingContent:
			e.EndThinking(idx)
		case *ToolCall:
			e.EndToolCall(idx)
		}
	}
}

// SetUsage replaces the usage (cost is computed at Done/Fail when model
// prices are given there).
func (e *Emitter) SetUsage(u Usage) { e.update(func() { e.msg.Usage = u }) }

// UpdateUsage lets f change the usage in place (for APIs that report it in
// parts); f runs under the stream's lock and must not call the Emitter.
func (e *Emitter) UpdateUsage(f func(u *Usage)) { e.update(func() { f(&e.msg.Usage) }) }

// SetStopReason records the provider's mapped stop reason.
func (e *Emitter) SetStopReason(r StopReason) { e.update(func() { e.msg.StopReason = r }) }

// SetResponseID records the provider's response id.
func (e *Emitter) SetResponseID(id string) { e.update(func() { e.msg.ResponseID = id }) }

// SetErrorMessage records an error text without ending the stream (for
// provider stop reasons that map to error).
func (e *Emitter) SetErrorMessage(s string) { e.update(func() { e.msg.ErrorMessage = s }) }

// Done finishes the message with its recorded stop reason, pricing usage
// with model's prices. A stop reason of error (e.g. a safety stop)
// produces an "error" event instead of "done". When a response that ends
// with "done" carries no usage at all (the server sent none) and the
// emitter knows the request (NewRequestEmitter, as every provider uses), the
// usage is estimated (EstimateUsage).
func (e *Emitter) Done(model *Model) {
	if e.ended {
		return
	}
	var estimate *Usage
	if e.req != nil && e.msg.Usage.IsZero() && e.msg.StopReason != StopReasonError && e.msg.StopReason != StopReasonAborted {
		u := EstimateUsage(e.req, e.msg) // outside the lock: reads only
		estimate = &u
	}
	e.finish(func() EventType {
		if estimate != nil {
			e.msg.Usage = *estimate
		}
		if model != nil {
			ComputeCost(model.Cost, &e.msg.Usage)
		}
		if e.msg.StopReason == StopReasonError || e.msg.StopReason == StopReasonAborted {
			if e.msg.ErrorMessage == "" {
				e.msg.ErrorMessage = "the provider ended the response with an error"
			}
			return EventError
		}
		return EventDone
	})
}

// Fail finishes the message with an error event. If ctx was cancelled the
// stop reason is aborted and the text AbortedMessage; otherwise the stop
// reason is error and the text is FormatError(err).
func (e *Emitter) Fail(ctx context.Context, model *Model, err error) {
	if e.ended {
		return
	}
	aborted := ctx != nil && ctx.Err() != nil || errors.Is(err, context.Canceled)
	e.finish(func() EventType {
		if model != nil {
			ComputeCost(model.Cost, &e.msg.Usage)
		}
		if aborted {
			e.msg.StopReason = StopReasonAborted
			e.msg.ErrorMessage = AbortedMessage
		} else {
			e.msg.StopReason = StopReasonError
			e.msg.ErrorMessage = FormatError(err)
		}
		return EventError
	})
}

// finish seals the open event, applies change (which picks the terminal
// type), parses the arguments of calls left open and pushes the terminal
// event with a copy of the message.
func (e *Emitter) finish(change func() EventType) {
	args := map[int]map[string]any{}
	incomplete := map[int]bool{}
	for i, b := range e.msg.Content {
		if tc, ok := b.(*ToolCall); ok && tc.PartialJSON != "" {
			args[i] = ParseStreamingJSON(tc.PartialJSON)
			incomplete[i] = !completeJSON(tc.PartialJSON)
		}
	}
	s := e.stream
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sealLocked()
	t := change()
	for i, a := range args {
		tc := e.msg.Content[i].(*ToolCall)
		tc.Arguments, tc.PartialJSON, tc.Incomplete = a, "", incomplete[i]
	}
	final := e.msg.Clone()
	s.appendLocked(Event{Type: t, Reason: final.StopReason, Message: final})
	e.ended = true
}

func (e *Emitter) block(idx int) Content {
	if idx < 0 || idx >= len(e.msg.Content) {
		return nil
	}
	return e.msg.Content[idx]
}

// completeJSON reports whether streamed argument text is one complete JSON
// value (surrounding space allowed).
func completeJSON(s string) bool {
	return json.Valid([]byte(s))
}
