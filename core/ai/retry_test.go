package ai

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
)

func errMsg(s string) *AssistantMessage {
	return &AssistantMessage{StopReason: StopReasonError, ErrorMessage: s}
}

func TestRetrySucceedsAfterTransientErrors(t *testing.T) {
	var calls int
	var events []RetryEvent
	msg := Retry(context.Background(), RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond},
		func(context.Context) *AssistantMessage {
			calls++
			if calls < 3 {
				return errMsg("HTTP 529: overloaded_error: Overloaded")
			}
			return &AssistantMessage{StopReason: StopReasonStop}
		}, func(e RetryEvent) { events = append(events, e) })
	if msg.StopReason != StopReasonStop || calls != 3 {
		t.Fatalf("calls %d, final %+v", calls, msg)
	}
	want := []RetryEvent{
		{Type: EventAutoRetryStart, Attempt: 1, MaxAttempts: 3, DelayMs: 1, ErrorMessage: "HTTP 529: overloaded_error: Overloaded"},
		{Type: EventAutoRetryStart, Attempt: 2, MaxAttempts: 3, DelayMs: 2, ErrorMessage: "HTTP 529: overloaded_error: Overloaded"},
		{Type: EventAutoRetryEnd, Attempt: 2, Success: true},
	}
	if fmt.Sprint(events) != fmt.Sprint(want) {
		t.Errorf("events\n%v\nwant\n%v", events, want)
	}
}

func TestRetryGivesUp(t *testing.T) {
	var events []RetryEvent
	calls := 0
	msg := Retry(context.Background(), RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond},
		func(context.Context) *AssistantMessage { calls++; return errMsg("HTTP 503 Service Unavailable") },
		func(e RetryEvent) { events = append(events, e) })
	if calls != 3 || msg.StopReason != StopReasonError {
		t.Fatalf("calls %d", calls)
	}
	last := events[len(events)-1]
	if last.Type != EventAutoRetryEnd || last.Success || last.Attempt != 2 || last.FinalError != "HTTP 503 Service Unavailable" {
		t.Errorf("last event %+v", last)
	}
}

func TestRetrySkipsNonRetryable(t *testing.T) {
	for _, m := range []*AssistantMessage{
		errMsg("HTTP 400 Bad Request: invalid_request_error: prompt is too long: 210000 tokens > 200000 maximum"),
		errMsg("HTTP 401 Unauthorized: invalid x-api-key"),
		{StopReason: StopReasonAborted, ErrorMessage: AbortedMessage},
		{StopReason: StopReasonStop},
	} {
		calls := 0
		var events []RetryEvent
		Retry(context.Background(), RetryPolicy{BaseDelay: time.Millisecond}, func(context.Context) *AssistantMessage { calls++; return m },
			func(e RetryEvent) { events = append(events, e) })
		if calls != 1 || len(events) != 0 {
			t.Errorf("%q retried: calls %d events %v", m.ErrorMessage, calls, events)
		}
	}
}

func TestRetryCancelledDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var events []RetryEvent
	Retry(ctx, RetryPolicy{BaseDelay: time.Hour, MaxDelay: time.Hour},
		func(context.Context) *AssistantMessage { return errMsg("overloaded") },
		func(e RetryEvent) {
			events = append(events, e)
			if e.Type == EventAutoRetryStart {
				cancel()
			}
		})
	if len(events) != 2 || events[1].FinalError != AbortedMessage {
		t.Errorf("events %+v", events)
	}
}

func TestRetryDelay(t *testing.T) {
	p := RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 10 * time.Second}
	for _, tc := range []struct {
		n    int
		msg  string
		want time.Duration
	}{
		{1, "x", time.Second}, {2, "x", 2 * time.Second}, {3, "x", 4 * time.Second}, {5, "x", 10 * time.Second},
		{1, "HTTP 429 (retry after 7s)", 7 * time.Second},
		{1, "HTTP 429 (retry after 70s)", 10 * time.Second},
	} {
		if got := p.Delay(tc.n, tc.msg); got != tc.want {
			t.Errorf("Delay(%d, %q) = %s, want %s", tc.n, tc.msg, got, tc.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	h.Set("Retry-After", "3")
	if got := ParseRetryAfter(h, now); got != 3*time.Second {
		t.Errorf("seconds: %s", got)
	}
	h.Set("retry-after-ms", "1500")
	if got := ParseRetryAfter(h, now); got != 1500*time.Millisecond {
		t.Errorf("ms: %s", got)
	}
	h = http.Header{}
	h.Set("Retry-After", now.Add(20*time.Second).Format(http.TimeFormat))
	if got := ParseRetryAfter(h, now); got != 20*time.Second {
		t.Errorf("date: %s", got)
	}
	h.Set("Retry-After", "soon")
	if got := ParseRetryAfter(h, now); got != 0 {
		t.Errorf("garbage: %s", got)
	}
	if got := FormatError(&HTTPError{Status: 429, Message: "slow", RetryAfter: 1500 * time.Millisecond}); got != "HTTP 429 Too Many Requests: slow (retry after 1.5s)" {
		t.Errorf("FormatError: %q", got)
	}
}

func TestIsContextOverflow(t *testing.T) {
	over := []string{
		"HTTP 400 Bad Request: invalid_request_error: prompt is too long: 213462 tokens > 200000 maximum",
		"HTTP 400 Bad Request: Your input exceeds the context window of this model.",
		"HTTP 400 Bad Request: This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
		"HTTP 400 Bad Request: The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
		"HTTP 400 Bad Request: context_length_exceeded",
		"HTTP 413 Request Entity Too Large",
	}
	for _, s := range over {
		if !IsContextOverflow(errMsg(s), 0) {
			t.Errorf("not recognised as overflow: %q", s)
		}
	}
	notOver := []string{
		"HTTP 429 Too Many Requests: Rate limit reached: too many tokens per minute",
		"HTTP 500 Internal Server Error",
		"overloaded_error: Overloaded",
	}
	for _, s := range notOver {
		if IsContextOverflow(errMsg(s), 0) {
			t.Errorf("wrongly recognised as overflow: %q", s)
		}
	}
	silent := &AssistantMessage{StopReason: StopReasonStop, Usage: Usage{Input: 150000, CacheRead: 60000}}
	if !IsContextOverflow(silent, 200000) || IsContextOverflow(silent, 0) {
		t.Error("silent overflow check")
	}
	// A usage gopi counted itself (the server reported none) is no sign
	// of a silent overflow.
	silent.Usage.Estimated = true
	if IsContextOverflow(silent, 200000) {
		t.Error("an estimated usage over the window is taken for an overflow")
	}
}
