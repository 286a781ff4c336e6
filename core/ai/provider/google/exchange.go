package google

import (
	"context"
	"net/http"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/sse"
)

// Call is one streamGenerateContent exchange as the APIs that speak
// Gemini's format (the Gemini API, Vertex AI, Cloud Code Assist) send it.
type Call struct {
	URL     string      // endpoint, including "?alt=sse"
	Headers http.Header // authentication and API headers
	Payload any         // the JSON body
}

// Run posts c and decodes its SSE stream into dec until the stream ends.
// The message starts (dec's first Start) once the response status is 2xx;
// Run does not finish it: the caller decides whether to retry an empty
// reply (Decoder.HasContent) before Decoder.Finish.
func Run(ctx context.Context, client *http.Client, req *ai.Request, dec *Decoder, c Call) error {
	resp, err := ai.Post(ctx, client, req, c.URL, c.Headers, c.Payload)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec.start()
	// Gemini has no final event: the stream ends after the last chunk.
	_, err = ai.ReadEvents(ctx, resp.Body, func(ev sse.Event) (bool, error) {
		return false, dec.Chunk(ev.Data)
	})
	return err
}

// Decoder turns streamed GenerateContentResponse chunks into events on an
// emitter: the state machine described in the package comment.
type Decoder struct {
	st      state
	started bool
}

// NewDecoder returns a decoder feeding em; requestID names tool calls that
// come without an id.
func NewDecoder(em *ai.Emitter, requestID string) *Decoder {
	return &Decoder{st: state{em: em, reqID: requestID}}
}

// NewEnvelopeDecoder is NewDecoder for Cloud Code Assist's chunks, each a
// GenerateContentResponse wrapped as {"response": {…}, "traceId": …} (read
// in one pass). A bare error object is reported as Gemini's; a chunk with
// neither is skipped.
func NewEnvelopeDecoder(em *ai.Emitter, requestID string) *Decoder {
	return &Decoder{st: state{em: em, reqID: requestID, envelope: true}}
}

// start pushes the message's start event the first time only.
func (d *Decoder) start() {
	if !d.started {
		d.started = true
		d.st.em.Start()
	}
}

// Chunk decodes one GenerateContentResponse (JSON); an error chunk or
// undecodable data is returned as the error that ends the message.
func (d *Decoder) Chunk(data []byte) error {
	d.start()
	return d.st.chunk(data)
}

// Started reports whether a response was accepted (its status was 2xx)
// and the message started.
func (d *Decoder) Started() bool { return d.started }

// HasContent reports whether any text, thinking or function-call part has
// arrived.
func (d *Decoder) HasContent() bool { return d.st.content }

// Reset forgets an empty reply's finish reason and usage so the request can
// be sent again into the same message; it is for replies without content
// (HasContent false), whose events were only the start.
func (d *Decoder) Reset() {
	d.st.finish = ""
	d.st.em.SetUsage(ai.Usage{})
}

// Finish closes the open block and sets the stop reason from the finish
// reason; a stream that ended without one is ai.ErrStreamEnded.
func (d *Decoder) Finish() error {
	if d.st.finish == "" {
		return ai.ErrStreamEnded
	}
	d.st.closeOpen()
	d.st.applyStop()
	return nil
}
