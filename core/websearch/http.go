package websearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/geminicli"
)

// Timeouts bound each phase of a provider request.
type Timeouts struct {
	Connect   time.Duration // TCP connect and TLS handshake; 0 is 10 s
	FirstByte time.Duration // from sending to the response headers; 0 is 60 s (answering providers think first)
	Idle      time.Duration // silence while the body arrives; 0 is 30 s
	// Total bounds the whole request, from connecting to the last byte of
	// the answer, so a provider that trickles its answer cannot hold a
	// search forever; 0 is DefaultTotal.
	Total time.Duration
}

// DefaultTotal is the overall deadline of one provider request (omp has
// none; the answering providers finish well within it).
const DefaultTotal = 2 * time.Minute

// errTotal is the cause of a request cut off by Timeouts.Total.
var errTotal = errors.New("the overall deadline of the request passed")

func (t Timeouts) withDefaults() Timeouts {
	if t.Connect == 0 {
		t.Connect = 10 * time.Second
	}
	if t.FirstByte == 0 {
		t.FirstByte = 60 * time.Second
	}
	if t.Idle == 0 {
		t.Idle = 30 * time.Second
	}
	if t.Total == 0 {
		t.Total = DefaultTotal
	}
	return t
}

// maxBody bounds a provider's answer (16 MiB); search answers are small,
// and a larger one fails saying so.
const maxBody = 16 << 20

// transport sends provider requests under the phase limits.
type transport struct {
	client   *http.Client
	timeouts Timeouts
}

func newTransport(t Timeouts) *transport {
	t = t.withDefaults()
	return &transport{client: ai.NewHTTPClient(t.Connect), timeouts: t}
}

// request is one provider call.
type request struct {
	provider ID
	keyVar   string // variable of the key, named on 401/403
	method   string
	url      string
	header   http.Header
	body     any // JSON-encoded when non-nil
}

// do sends r and decodes a 2xx JSON answer into out. Failures come back
// as *Error naming the provider.
func (t *transport) do(ctx context.Context, r request, out any) (requestID string, err error) {
	outer := ctx
	ctx, cancel := context.WithTimeoutCause(ctx, t.timeouts.Total, errTotal)
	defer cancel()
	var body io.Reader
	if r.body != nil {
		data, err := json.Marshal(r.body)
		if err != nil {
			return "", &Error{Provider: r.provider, Message: fmt.Sprintf("%s request could not be encoded: %v", r.provider.Label(), err)}
		}
		body = bytes.NewReader(data)
	}
	hr, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		return "", &Error{Provider: r.provider, Message: fmt.Sprintf("%s request URL %q is not valid: %v", r.provider.Label(), r.url, err)}
	}
	for k, vs := range r.header {
		hr.Header[k] = vs
	}
	if r.body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if hr.Header.Get("Accept") == "" {
		hr.Header.Set("Accept", "application/json")
	}
	resp, err := ai.Send(t.client, &ai.Request{FirstEventTimeout: t.timeouts.FirstByte, IdleTimeout: t.timeouts.Idle}, hr)
	if err != nil {
		return "", t.transportError(outer, ctx, r.provider, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return "", t.transportError(outer, ctx, r.provider, err)
	}
	requestID = resp.Header.Get("X-Request-Id")
	if requestID == "" {
		requestID = resp.Header.Get("Request-Id")
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return requestID, statusError(r, resp, data)
	}
	if len(data) > maxBody {
		return requestID, &Error{Provider: r.provider, Status: resp.StatusCode,
			Message: fmt.Sprintf("%s answered with more than %d MiB, more than a search answer can be; ask for fewer results or choose another provider with providers.webSearch", r.provider.Label(), maxBody>>20)}
	}
	if raw, ok := out.(*rawBody); ok { // the caller reads the bytes itself
		*raw = data
		return requestID, nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		// A field of an unexpected type inside a result (a numeric
		// title) costs that field, not the answer; a top-level member of
		// the wrong kind is a wrong answer.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && strings.Contains(te.Field, ".") && decodeLenient(data, out) == nil {
			return requestID, nil
		}
		return requestID, &Error{Provider: r.provider, Status: resp.StatusCode,
			Message: fmt.Sprintf("%s answered with malformed JSON (%s); try again, or choose another provider with providers.webSearch", r.provider.Label(), jsonProblem(err))}
	}
	return requestID, nil
}

// jsonProblem says what is wrong with a JSON answer without Go's type
// names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("its field %s is a JSON %s where another kind of value was expected", te.Field, te.Value)
	case errors.As(err, &te):
		return fmt.Sprintf("the answer is a JSON %s where an object was expected", te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("a syntax error at byte %d", se.Offset)
	}
	return clipDetail(err.Error())
}

// maxDetail bounds a provider's own error text in a message (bytes).
const maxDetail = 300

// clipDetail is msg on one line, at most maxDetail bytes (cut at a
// character boundary, with an ellipsis).
func clipDetail(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) <= maxDetail {
		return msg
	}
	cut := maxDetail
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// statusError turns a non-2xx answer into an *Error with the provider's
// own message.
func statusError(r request, resp *http.Response, data []byte) *Error {
	e := &Error{Provider: r.provider, Status: resp.StatusCode, KeyVar: r.keyVar}
	detail := errorDetail(data)
	if detail == "" {
		detail = http.StatusText(resp.StatusCode)
	}
	e.Message = fmt.Sprintf("%s API error (%d): %s", r.provider.Label(), resp.StatusCode, detail)
	switch {
	case r.provider == Gemini:
		// Cloud Code Assist says when to come back in its headers or its
		// body, for 429s and 5xx alike; the Gemini search retries by it.
		e.RetryAfter = ai.ParseRetryAfter(resp.Header, time.Now())
		if e.RetryAfter == 0 {
			e.RetryAfter = geminicli.RetryHint(resp.Header, data, time.Now())
		}
	case resp.StatusCode == http.StatusTooManyRequests:
		e.RetryAfter = ai.ParseRetryAfter(resp.Header, time.Now())
	}
	return e
}

// errorDetail is the message of an error body: the first of message,
// detail or error (nested one level), or the trimmed body itself.
func errorDetail(data []byte) string {
	var v any
	if json.Unmarshal(data, &v) == nil {
		if m := findMessage(v, 0); m != "" {
			return clipDetail(m)
		}
	}
	return clipDetail(string(data))
}

func findMessage(v any, depth int) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case []any:
		for _, e := range x {
			if m := findMessage(e, depth+1); m != "" {
				return m
			}
		}
	case map[string]any:
		if depth > 2 {
			return ""
		}
		for _, k := range []string{"message", "detail", "error", "msg"} {
			if m := findMessage(x[k], depth+1); m != "" {
				return m
			}
		}
	}
	return ""
}

// transportError describes a request that got no complete answer; outer
// is the caller's context, ctx the request's (outer with the overall
// deadline).
func (t *transport) transportError(outer, ctx context.Context, id ID, err error) *Error {
	var stall *ai.StallError
	var conn *ai.ConnectError
	switch {
	case outer.Err() != nil:
		return &Error{Provider: id, Message: fmt.Sprintf("%s search was cancelled", id.Label())}
	case errors.Is(context.Cause(ctx), errTotal):
		return &Error{Provider: id, Message: fmt.Sprintf("%s did not finish its answer within %s; try again later or choose another provider with providers.webSearch", id.Label(), t.timeouts.Total)}
	case errors.As(err, &conn):
		return &Error{Provider: id, unreachable: true, Message: fmt.Sprintf("%s could not be reached: connecting to %s timed out after %s; check the network or choose another provider with providers.webSearch", id.Label(), conn.Addr, conn.Timeout)}
	case errors.As(err, &stall) && stall.First:
		return &Error{Provider: id, Message: fmt.Sprintf("%s did not start answering within %s; try again later or choose another provider with providers.webSearch", id.Label(), stall.Waited.Round(time.Millisecond))}
	case errors.As(err, &stall):
		return &Error{Provider: id, Message: fmt.Sprintf("%s stopped sending its answer for %s; try again later or choose another provider with providers.webSearch", id.Label(), stall.Waited.Round(time.Millisecond))}
	}
	var op *net.OpError
	return &Error{Provider: id, unreachable: errors.As(err, &op) && op.Op == "dial",
		Message: fmt.Sprintf("%s request failed: %v; check the network or the provider's endpoint", id.Label(), err)}
}

// jsonUnmarshal is json.Unmarshal, for the custom decoders.
func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
