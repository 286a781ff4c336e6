package ai

import (
	"context"
	"errors"
	"time"
)

// AbortedMessage is the error text of an aborted request.
const AbortedMessage = "Request was aborted"

// Emitter builds an AssistantMessage while pushing the matching events to a
// Stream. Providers call its methods as the wire events arrive; it keeps the
// partial message, snapshots it into every event, re-parses tool-call
// arguments and produces the terminal event. An Emitter is used by one
// goroutine.
type Emitter struct {
	stream *Stream
	msg    *AssistantMessage
	open   map[int]bool // content indexes whose block has started and not ended
	ended  bool
}

// NewEmitter starts a message for model and returns the emitter and the
// stream it feeds. It does not push "start"; call Start.
func NewEmitter(model *Model) (*Emitter, *Stream) {
	s := NewStream()
	msg := &AssistantMessage{Content: ContentList{}, StopReason: StopReasonStop, Timestamp: time.Now().UnixMilli()}
	if model != nil {
		msg.API, msg.Provider, msg.Model = model.API, model.Provider, model.ID
	}
	return &Emitter{stream: s, msg: msg, open: map[int]bool{}}, s
}

// Message returns the message being built (owned by the emitter; do not
// keep it past the terminal event unless the stream is done).
func (e *Emitter) Message() *AssistantMessage { return e.msg }

// Ended reports whether a terminal event was pushed.
func (e *Emitter) Ended() bool { return e.ended }

func (e *Emitter) push(ev Event) {
	if e.ended {
		return
	}
	if !ev.Type.IsTerminal() {
		ev.Partial = e.msg.Clone()
	}
	e.stream.Push(ev)
}

// Start pushes "start".
func (e *Emitter) Start() { e.push(Event{Type: EventStart}) }

// StartText opens a text block and returns its content index.
func (e *Emitter) StartText() int {
	idx := len(e.msg.Content)
	e.msg.Content = append(e.msg.Content, &TextContent{})
	e.open[idx] = true
	e.push(Event{Type: EventTextStart, ContentIndex: idx})
	return idx
}

// TextDelta appends to the text block at idx.
func (e *Emitter) TextDelta(idx int, delta string) {
	t, ok := e.block(idx).(*TextContent)
	if !ok {
		return
	}
	t.Text += delta
	e.push(Event{Type: EventTextDelta, ContentIndex: idx, Delta: delta})
}

// SetTextSignature records a provider id for the text block at idx.
func (e *Emitter) SetTextSignature(idx int, sig string) {
	if t, ok := e.block(idx).(*TextContent); ok {
		t.TextSignature = sig
	}
}

// EndText closes the text block at idx.
func (e *Emitter) EndText(idx int) {
	t, ok := e.block(idx).(*TextContent)
	if !ok || !e.open[idx] {
		return
	}
	delete(e.open, idx)
	e.push(Event{Type: EventTextEnd, ContentIndex: idx, Content: t.Text})
}

// StartThinking opens a thinking block and returns its content index.
func (e *Emitter) StartThinking() int {
	idx := len(e.msg.Content)
	e.msg.Content = append(e.msg.Content, &ThinkingContent{})
	e.open[idx] = true
	e.push(Event{Type: EventThinkingStart, ContentIndex: idx})
	return idx
}

// ThinkingDelta appends to the thinking block at idx.
func (e *Emitter) ThinkingDelta(idx int, delta string) {
	t, ok := e.block(idx).(*ThinkingContent)
	if !ok {
		return
	}
	t.Thinking += delta
	e.push(Event{Type: EventThinkingDelta, ContentIndex: idx, Delta: delta})
}

// AppendThinkingSignature extends the signature of the thinking block at
// idx without pushing an event.
func (e *Emitter) AppendThinkingSignature(idx int, sig string) {
	if t, ok := e.block(idx).(*ThinkingContent); ok {
		t.ThinkingSignature += sig
	}
}

// SetThinkingRedacted marks the thinking block at idx as redacted with its
// opaque data as signature.
func (e *Emitter) SetThinkingRedacted(idx int, data string) {
	if t, ok := e.block(idx).(*ThinkingContent); ok {
		t.Redacted = true
		t.ThinkingSignature = data
	}
}

// EndThinking closes the thinking block at idx.
func (e *Emitter) EndThinking(idx int) {
	t, ok := e.block(idx).(*ThinkingContent)
	if !ok || !e.open[idx] {
		return
	}
	delete(e.open, idx)
	e.push(Event{Type: EventThinkingEnd, ContentIndex: idx, Content: t.Thinking})
}

// StartToolCall opens a tool-call block and returns its content index.
func (e *Emitter) StartToolCall(id, name string) int {
	idx := len(e.msg.Content)
	e.msg.Content = append(e.msg.Content, &ToolCall{ID: id, Name: name, Arguments: map[string]any{}})
	e.open[idx] = true
	e.push(Event{Type: EventToolCallStart, ContentIndex: idx})
	return idx
}

// ToolCallDelta appends argument JSON text to the call at idx and re-parses
// the whole accumulated text.
func (e *Emitter) ToolCallDelta(idx int, delta string) {
	t, ok := e.block(idx).(*ToolCall)
	if !ok {
		return
	}
	t.PartialJSON += delta
	t.Arguments = ParseStreamingJSON(t.PartialJSON)
	e.push(Event{Type: EventToolCallDelta, ContentIndex: idx, Delta: delta})
}

// SetToolCallArguments replaces the accumulated argument text of the call at
// idx (for APIs that send the complete arguments at the end).
func (e *Emitter) SetToolCallArguments(idx int, argsJSON string) {
	if t, ok := e.block(idx).(*ToolCall); ok {
		t.PartialJSON = argsJSON
		t.Arguments = ParseStreamingJSON(argsJSON)
	}
}

// SetToolCallID changes the id of the call at idx (for APIs that reveal it late).
func (e *Emitter) SetToolCallID(idx int, id string) {
	if t, ok := e.block(idx).(*ToolCall); ok {
		t.ID = id
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
	if t.PartialJSON != "" {
		t.Arguments = ParseStreamingJSON(t.PartialJSON)
	}
	t.PartialJSON = ""
	final := *t
	e.push(Event{Type: EventToolCallEnd, ContentIndex: idx, ToolCall: &final})
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
func (e *Emitter) SetUsage(u Usage) { e.msg.Usage = u }

// Usage returns the usage for in-place updates.
func (e *Emitter) Usage() *Usage { return &e.msg.Usage }

// SetStopReason records the provider's mapped stop reason.
func (e *Emitter) SetStopReason(r StopReason) { e.msg.StopReason = r }

// SetResponseID records the provider's response id.
func (e *Emitter) SetResponseID(id string) { e.msg.ResponseID = id }

// SetErrorMessage records an error text without ending the stream (for
// provider stop reasons that map to error).
func (e *Emitter) SetErrorMessage(s string) { e.msg.ErrorMessage = s }

// Done finishes the message with its recorded stop reason, pricing usage
// with model's prices. A stop reason of error (e.g. a safety stop) produces
// an "error" event instead of "done".
func (e *Emitter) Done(model *Model) {
	if e.ended {
		return
	}
	if model != nil {
		ComputeCost(model.Cost, &e.msg.Usage)
	}
	if e.msg.StopReason == StopReasonError || e.msg.StopReason == StopReasonAborted {
		if e.msg.ErrorMessage == "" {
			e.msg.ErrorMessage = "the provider ended the response with an error"
		}
		e.finish(EventError)
		return
	}
	e.finish(EventDone)
}

// Fail finishes the message with an error event. If ctx was cancelled the
// stop reason is aborted and the text AbortedMessage; otherwise the stop
// reason is error and the text is FormatError(err).
func (e *Emitter) Fail(ctx context.Context, model *Model, err error) {
	if e.ended {
		return
	}
	if model != nil {
		ComputeCost(model.Cost, &e.msg.Usage)
	}
	if ctx != nil && ctx.Err() != nil || errors.Is(err, context.Canceled) {
		e.msg.StopReason = StopReasonAborted
		e.msg.ErrorMessage = AbortedMessage
	} else {
		e.msg.StopReason = StopReasonError
		e.msg.ErrorMessage = FormatError(err)
	}
	e.finish(EventError)
}

func (e *Emitter) finish(t EventType) {
	for _, b := range e.msg.Content {
		if tc, ok := b.(*ToolCall); ok && tc.PartialJSON != "" {
			tc.Arguments = ParseStreamingJSON(tc.PartialJSON)
			tc.PartialJSON = ""
		}
	}
	final := e.msg.Clone()
	e.stream.Push(Event{Type: t, Reason: final.StopReason, Message: final})
	e.ended = true
}

func (e *Emitter) block(idx int) Content {
	if idx < 0 || idx >= len(e.msg.Content) {
		return nil
	}
	return e.msg.Content[idx]
}
