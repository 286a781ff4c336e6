package mockllm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// bedrockContentType is the media type of a ConverseStream response: binary
// event-stream messages (a prelude with lengths and a CRC, typed headers, a
// JSON payload and a message CRC), not server-sent events.
const bedrockContentType = "application/vnd.amazon.eventstream"

// bedrockModel returns the model id of a ConverseStream path,
// …/model/{modelId}/converse-stream, unescaped (ids such as
// "anthropic.claude-sonnet-4-5-20250929-v1:0" and inference profile ARNs
// arrive percent-encoded).
func bedrockModel(u *url.URL) string {
	p := strings.TrimSuffix(u.EscapedPath(), "/converse-stream")
	i := strings.LastIndex(p, "/model/")
	if i < 0 {
		return ""
	}
	id, err := url.PathUnescape(p[i+len("/model/"):])
	if err != nil {
		return p[i+len("/model/"):]
	}
	return id
}

// bedrockStop renders a normalized stop reason as a Converse stopReason.
// A refusal is "content_filtered", what Bedrock reports when the model's
// own safety stop ends the answer.
func bedrockStop(t *Turn) string {
	if t.RawStop != "" {
		return t.RawStop
	}
	switch t.stop() {
	case StopLength:
		return "max_tokens"
	case StopToolUse:
		return "tool_use"
	case StopRefusal:
		return "content_filtered"
	}
	return "end_turn"
}

// bedrockStream writes event-stream messages through a streamWriter, so
// the turn's stall, disconnect and delay settings apply to them as to SSE
// frames.
type bedrockStream struct {
	s   *streamWriter
	enc *eventstream.Encoder
}

// message encodes one event-stream message with the given :message-type
// and type header (:event-type or :exception-type) and a JSON payload.
func (b *bedrockStream) message(messageType, typeHeader, name string, payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		panic(fmt.Sprintf("mockllm: encoding %s event: %v", name, err))
	}
	var headers eventstream.Headers
	headers.Set(":message-type", eventstream.StringValue(messageType))
	headers.Set(typeHeader, eventstream.StringValue(name))
	headers.Set(":content-type", eventstream.StringValue("application/json"))
	var buf bytes.Buffer
	if err := b.enc.Encode(&buf, eventstream.Message{Headers: headers, Payload: data}); err != nil {
		panic(fmt.Sprintf("mockllm: encoding %s event: %v", name, err))
	}
	b.s.write(buf.Bytes())
}

// event sends one ConverseStream event.
func (b *bedrockStream) event(name string, payload any) {
	b.message("event", ":event-type", name, payload)
}

// delta sends a contentBlockDelta and applies StallAfterDeltas.
func (b *bedrockStream) delta(index int, delta map[string]any) {
	b.event("contentBlockDelta", map[string]any{"contentBlockIndex": index, "delta": delta})
	b.s.countDelta()
}

// playBedrock streams a turn as ConverseStream events: messageStart, per
// block an optional contentBlockStart (tool use only, as Bedrock sends it),
// contentBlockDelta… and contentBlockStop, then messageStop with the
// stopReason and a metadata event with usage and metrics (left out with
// NoUsage). Real payloads carry a "p" padding field of random length; the
// first event has one so clients prove they ignore it. StreamError ends
// the stream with a modelStreamErrorException message instead.
func playBedrock(s *streamWriter, t *Turn, index int) {
	b := &bedrockStream{s: s, enc: eventstream.NewEncoder()}
	b.event("messageStart", map[string]any{"role": "assistant", "p": "abcdefghijklmnopqrstuvwxyzABCDEF"})
	for i, blk := range t.Blocks {
		switch blk.Type {
		case BlockText:
			for _, p := range t.chunk(blk.Text) {
				b.delta(i, map[string]any{"text": p})
			}
		case BlockThinking:
			for _, p := range t.chunk(blk.Text) {
				b.delta(i, map[string]any{"reasoningContent": map[string]any{"text": p}})
			}
			if blk.Signature != "" {
				b.event("contentBlockDelta", map[string]any{"contentBlockIndex": i,
					"delta": map[string]any{"reasoningContent": map[string]any{"signature": blk.Signature}}})
			}
		case BlockRedactedThinking:
			// Blob members travel base64-encoded in the JSON payload.
			b.delta(i, map[string]any{"reasoningContent": map[string]any{
				"redactedContent": base64.StdEncoding.EncodeToString([]byte(blk.Signature))}})
		case BlockToolCall:
			id := blk.ID
			if id == "" {
				id = fmt.Sprintf("tooluse_mock_%d_%d", index+1, i)
			}
			b.event("contentBlockStart", map[string]any{"contentBlockIndex": i,
				"start": map[string]any{"toolUse": map[string]any{"toolUseId": id, "name": blk.Name}}})
			for _, p := range t.chunk(blk.Arguments) {
				b.delta(i, map[string]any{"toolUse": map[string]any{"input": p}})
			}
		}
		b.event("contentBlockStop", map[string]any{"contentBlockIndex": i})
	}
	if t.StreamError {
		msg := t.ErrorMessage
		if msg == "" {
			msg = "The model stream failed"
		}
		b.message("exception", ":exception-type", "modelStreamErrorException",
			map[string]any{"message": msg, "originalStatusCode": 529, "originalMessage": msg})
		return
	}
	b.event("messageStop", map[string]any{"stopReason": bedrockStop(t)})
	if t.NoUsage {
		return
	}
	u := t.usage()
	b.event("metadata", map[string]any{
		"usage": map[string]any{
			"inputTokens": u.Input, "outputTokens": u.Output,
			"cacheReadInputTokens": u.CacheRead, "cacheWriteInputTokens": u.CacheWrite,
			"totalTokens": u.Input + u.Output + u.CacheRead + u.CacheWrite,
		},
		"metrics": map[string]any{"latencyMs": 42},
	})
}

// bedrockErrorType names the exception Bedrock answers an HTTP status
// with (its x-amzn-ErrorType header).
func bedrockErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "ValidationException"
	case http.StatusForbidden:
		return "AccessDeniedException"
	case http.StatusNotFound:
		return "ResourceNotFoundException"
	case http.StatusRequestTimeout:
		return "ModelTimeoutException"
	case 424:
		return "ModelErrorException"
	case http.StatusTooManyRequests:
		return "ThrottlingException"
	case http.StatusServiceUnavailable, 529:
		return "ServiceUnavailableException"
	}
	if status == http.StatusUnauthorized {
		return "UnrecognizedClientException"
	}
	return "InternalServerException"
}

// writeBedrockError answers with a REST-JSON error: the exception name in
// x-amzn-ErrorType and {"message": …} as the body.
func writeBedrockError(w http.ResponseWriter, status int, msg string) {
	data, _ := json.Marshal(map[string]any{"message": msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-Errortype", bedrockErrorType(status)+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}
