package bedrock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/gopi-agent/gopi/core/ai"
)

// eventStreamType is the media type of a ConverseStream answer: binary
// event-stream messages (a prelude with lengths and a CRC, typed headers,
// a JSON payload, a message CRC), not server-sent events.
const eventStreamType = "application/vnd.amazon.eventstream"

// readStream decodes the event-stream messages of body into d until the
// body ends, an exception arrives or ctx ends. Frames are checked (lengths
// and both CRCs) by the SDK's event-stream decoder.
func readStream(ctx context.Context, body io.Reader, d *decoder) error {
	dec := eventstream.NewDecoder()
	var buf []byte
	for {
		msg, err := dec.Decode(body, buf)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, io.EOF) {
				if !d.stopped {
					return ai.ErrStreamEnded
				}
				return nil
			}
			return streamError(err)
		}
		buf = msg.Payload[:0]
		switch header(msg.Headers, ":message-type") {
		case "event":
			if err := d.event(header(msg.Headers, ":event-type"), msg.Payload); err != nil {
				return err
			}
		case "exception":
			ex := &streamException{Kind: header(msg.Headers, ":exception-type")}
			_ = json.Unmarshal(msg.Payload, &ex.Payload)
			return streamError(ex)
		case "error":
			return streamError(&streamException{Kind: header(msg.Headers, ":error-code"), Payload: exceptionPayload{Message: header(msg.Headers, ":error-message")}})
		default:
			return fmt.Errorf("Bedrock sent an event-stream message of unknown type %q", header(msg.Headers, ":message-type"))
		}
	}
}

// header returns a string header's value, or "".
func header(h eventstream.Headers, name string) string {
	if v, ok := h.Get(name).(eventstream.StringValue); ok {
		return string(v)
	}
	return ""
}
