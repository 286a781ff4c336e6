package ai

import (
	"context"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// RetryPolicy configures message-level retries.
type RetryPolicy struct {
	MaxAttempts int           // retries after the first attempt; 0 means DefaultRetryPolicy's
	BaseDelay   time.Duration // delay before the first retry; doubles each time; 0 means default
	MaxDelay    time.Duration // cap on one delay, also on server retry-after hints; 0 means default
}

// DefaultRetryPolicy is 3 retries starting at 2 s, at most 60 s apart.
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 3, BaseDelay: 2 * time.Second, MaxDelay: 60 * time.Second}

// RetryEventType names a retry event.
type RetryEventType string

// Retry event types.
const (
	EventAutoRetryStart RetryEventType = "auto_retry_start" // a retry is scheduled
	EventAutoRetryEnd   RetryEventType = "auto_retry_end"   // retrying ended (success or give up)
)

// RetryEvent is auto_retry_start{attempt,maxAttempts,delayMs,errorMessage}
// or auto_retry_end{success,attempt,finalError?}.
type RetryEvent struct {
	Type         RetryEventType `json:"type"`                   // start or end
	Attempt      int            `json:"attempt"`                // 1-based retry number
	MaxAttempts  int            `json:"maxAttempts,omitempty"`  // start: the policy's MaxAttempts
	DelayMs      int64          `json:"delayMs,omitempty"`      // start: wait before the retry
	ErrorMessage string         `json:"errorMessage,omitempty"` // start: the error being retried
	Success      bool           `json:"success"`                // end: the last attempt succeeded
	FinalError   string         `json:"finalError,omitempty"`   // end: the error that stopped retrying
}

// retryablePattern matches transient failures worth another attempt.
var retryablePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)overloaded|rate.?limit|too many requests|^HTTP (?:408|409|425|429|5\d\d)\b|service.?unavailable|server.?error|internal error|timed? ?out|timeout|connection|network|socket|EOF|ended before|other side closed|fetch failed|upstream|temporarily`)
})

// IsRetryable reports whether m failed with a transient error: stop reason
// error, not a context overflow, and a message that looks like overload,
// rate limiting, a 5xx or a network failure.
func IsRetryable(m *AssistantMessage) bool {
	if m == nil || m.StopReason != StopReasonError || IsContextOverflow(m, 0) {
		return false
	}
	return retryablePattern().MatchString(m.ErrorMessage)
}

var retryAfterText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(retry after ([0-9.]+)s\)`) })

// RetryAfterFromMessage returns the server hint FormatError appended to an
// error text, or 0.
func RetryAfterFromMessage(s string) time.Duration {
	m := retryAfterText().FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil || f <= 0 {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

// Delay returns the wait before retry number attempt (1-based): the
// exponential backoff or the server's hint in errMsg, whichever is larger,
// capped at MaxDelay.
func (p RetryPolicy) Delay(attempt int, errMsg string) time.Duration {
	p = p.withDefaults()
	d := p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	if hint := RetryAfterFromMessage(errMsg); hint > d {
		d = hint
	}
	return min(d, p.MaxDelay)
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultRetryPolicy.MaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultRetryPolicy.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultRetryPolicy.MaxDelay
	}
	return p
}

// Retry runs attempt and, while it returns a retryable error message, waits
// and runs it again, up to the policy's MaxAttempts retries. notify (may be
// nil) receives auto_retry_start before each wait and one auto_retry_end
// when a retry happened: success when a retried attempt succeeded, else the
// final error. Cancelling ctx during a wait stops with the last message and
// finalError AbortedMessage. The returned message is the last attempt's.
func Retry(ctx context.Context, p RetryPolicy, attempt func(ctx context.Context) *AssistantMessage, notify func(RetryEvent)) *AssistantMessage {
	p = p.withDefaults()
	emit := func(e RetryEvent) {
		if notify != nil {
			notify(e)
		}
	}
	msg := attempt(ctx)
	for n := 1; ; n++ {
		if !IsRetryable(msg) {
			if n > 1 {
				end := RetryEvent{Type: EventAutoRetryEnd, Attempt: n - 1, Success: msg != nil && msg.StopReason != StopReasonError && msg.StopReason != StopReasonAborted}
				if !end.Success && msg != nil {
					end.FinalError = msg.ErrorMessage
				}
				emit(end)
			}
			return msg
		}
		if n > p.MaxAttempts {
			emit(RetryEvent{Type: EventAutoRetryEnd, Attempt: n - 1, FinalError: msg.ErrorMessage})
			return msg
		}
		d := p.Delay(n, msg.ErrorMessage)
		emit(RetryEvent{Type: EventAutoRetryStart, Attempt: n, MaxAttempts: p.MaxAttempts, DelayMs: d.Milliseconds(), ErrorMessage: msg.ErrorMessage})
		if ctxsleep.Sleep(ctx, d) != nil {
			emit(RetryEvent{Type: EventAutoRetryEnd, Attempt: n, FinalError: AbortedMessage})
			return msg
		}
		msg = attempt(ctx)
	}
}
