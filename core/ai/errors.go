package ai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// HTTPError is a non-2xx response from a provider.
type HTTPError struct {
	Status     int           // HTTP status code
	Message    string        // the provider's error message, or the trimmed body
	RetryAfter time.Duration // from Retry-After / retry-after-ms headers; 0 when absent
	RequestID  string        // our request id
	Body       []byte        // the response body as received (at most 64 KiB), for providers with their own error shapes
	Header     http.Header   // the response headers (rate-limit and quota details)
}

// Error formats "HTTP 429 Too Many Requests: message".
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))
	s = strings.TrimSpace(s)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Retryable reports whether the status suggests trying again later
// (408, 409, 425, 429 and 5xx).
func (e *HTTPError) Retryable() bool {
	switch {
	case e.Status == 408, e.Status == 409, e.Status == 425, e.Status == 429:
		return true
	case e.Status >= 500:
		return true
	}
	return false
}

// StreamError is a failure reported inside an otherwise successful stream
// (an SSE "error" event) or a broken stream.
type StreamError struct {
	Kind    string // provider's error type, e.g. "overloaded_error"; "" if unknown
	Message string // what went wrong
}

// Error returns "kind: message" or the message.
func (e *StreamError) Error() string {
	if e.Kind == "" {
		return e.Message
	}
	return e.Kind + ": " + e.Message
}

// ErrStreamEnded is returned when a stream stops before its final event.
var ErrStreamEnded = errors.New("the response stream ended before the provider finished the message (connection closed mid-stream)")

// FormatError renders err for an AssistantMessage's errorMessage, appending
// the server's retry hint as " (retry after Ns)" when one was given.
func FormatError(err error) string {
	if err == nil {
		return "unknown error"
	}
	s := err.Error()
	var he *HTTPError
	if errors.As(err, &he) && he.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", formatSeconds(he.RetryAfter))
	}
	return s
}

func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// ParseRetryAfter reads retry-after-ms, then Retry-After (seconds or an HTTP
// date) from headers. It returns 0 when neither is usable.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// errorBodyMessage extracts a readable message from an error body: the
// common {"error":{"message":…}} / {"error":"…"} / {"message":…} shapes, or
// the trimmed text.
func errorBodyMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		if len(v.Error) > 0 {
			var s string
			if json.Unmarshal(v.Error, &s) == nil && s != "" {
				return s
			}
			if json.Unmarshal(v.Error, &inner) == nil && inner.Message != "" {
				if inner.Type != "" {
					return inner.Type + ": " + inner.Message
				}
				return inner.Message
			}
		}
		if v.Message != "" {
			return v.Message
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 1000 {
		s = s[:1000] + "…"
	}
	return s
}
