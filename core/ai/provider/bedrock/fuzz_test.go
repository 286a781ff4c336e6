package bedrock

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/gopi-agent/gopi/core/ai"
)

// bodyTransport answers every request with 200 and its event-stream body,
// without a network (one request at a time).
type bodyTransport struct{ body []byte }

func (b *bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/vnd.amazon.eventstream"}},
		Body:    io.NopCloser(bytes.NewReader(b.body)),
		Request: r,
	}, nil
}

// eventStream encodes (event type, JSON payload) pairs as event-stream
// messages; a type starting with "!" is an exception.
func eventStream(events ...string) []byte {
	var buf bytes.Buffer
	enc := eventstream.NewEncoder()
	for i := 0; i+1 < len(events); i += 2 {
		var h eventstream.Headers
		name := events[i]
		if name[0] == '!' {
			h.Set(":message-type", eventstream.StringValue("exception"))
			h.Set(":exception-type", eventstream.StringValue(name[1:]))
		} else {
			h.Set(":message-type", eventstream.StringValue("event"))
			h.Set(":event-type", eventstream.StringValue(name))
		}
		h.Set(":content-type", eventstream.StringValue("application/json"))
		_ = enc.Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(events[i+1])})
	}
	return buf.Bytes()
}

// FuzzStreamBody feeds arbitrary response bodies through the SDK's
// event-stream reader into the decoder: the stream must end with exactly
// one terminal event, within the deadline, with no partial tool-call JSON
// left in the final message.
func FuzzStreamBody(f *testing.F) {
	f.Add(eventStream(
		"messageStart", `{"role":"assistant"}`,
		"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"hm"}}}`,
		"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"s"}}}`,
		"contentBlockStop", `{"contentBlockIndex":0}`,
		"contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"t","name":"read"}}}`,
		"contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"pa"}}}`,
		"messageStop", `{"stopReason":"tool_use"}`,
		"metadata", `{"usage":{"inputTokens":3,"outputTokens":4,"totalTokens":7}}`))
	f.Add(eventStream(
		"messageStart", `{"role":"assistant"}`,
		"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"a"}}`,
		"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"x"}}}`,
		"!throttlingException", `{"message":"slow"}`))
	f.Add(eventStream("messageStart", `{"role":"user"}`))
	f.Add([]byte("not an event stream"))
	var transport bodyTransport
	p := NewWithEnv(&http.Client{Transport: &transport}, testEnv(nil))
	f.Fuzz(func(t *testing.T, body []byte) {
		transport.body = body
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req := simpleRequest("http://bedrock.invalid")
		s := p.Stream(ctx, req)
		evs, final := s.Collect()
		if ctx.Err() != nil || final == nil || len(evs) == 0 || !evs[len(evs)-1].Type.IsTerminal() {
			t.Fatalf("no terminal event: %v", evs)
		}
		for _, ev := range evs[:len(evs)-1] {
			if ev.Type.IsTerminal() {
				t.Fatalf("terminal event %s before the end", ev.Type)
			}
		}
		for _, b := range final.Content {
			if tc, ok := b.(*ai.ToolCall); ok && tc.PartialJSON != "" {
				t.Fatalf("partial JSON left in %+v", tc)
			}
		}
	})
}
