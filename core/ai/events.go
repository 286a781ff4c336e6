package ai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gopi-agent/gopi/core/ai/sse"
)

// ReadEvents is the read loop every provider shares: it decodes the
// server-sent events of body and hands each event whose data is not blank
// to handle, with the data trimmed of surrounding white space. It stops
// when handle reports the provider's final event (done), when handle fails,
// when the stream ends, or when reading fails, and returns:
//
//   - done and nil after the final event;
//   - false and nil at a clean end of the stream, where the provider
//     decides whether it had seen enough (Gemini has no final event);
//   - handle's error as it is;
//   - ErrStreamEnded wrapped with the cause for a body cut mid-stream
//     (io.ErrUnexpectedEOF);
//   - any other read failure wrapped as "reading the response stream: …".
//
// When ctx ends, body is closed so that a stalled read returns at once.
// The event's slices are only valid during the call to handle.
func ReadEvents(ctx context.Context, body io.ReadCloser, handle func(ev sse.Event) (done bool, err error)) (bool, error) {
	stop := context.AfterFunc(ctx, func() { body.Close() })
	defer stop()
	r := sse.NewReader(body)
	for {
		ev, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return false, fmt.Errorf("%w: %v", ErrStreamEnded, err)
			}
			return false, fmt.Errorf("reading the response stream: %w", err)
		}
		ev.Data = bytes.TrimSpace(ev.Data)
		if len(ev.Data) == 0 {
			continue
		}
		done, err := handle(ev)
		if err != nil || done {
			return done, err
		}
	}
}
