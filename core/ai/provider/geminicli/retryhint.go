package geminicli

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai/provider/google"
)

// The texts Cloud Code Assist puts in an error body to say when to come
// back: "Your quota will reset after 18h31m10s", "Please retry in 2.5s".
var (
	resetAfter = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)reset after (?:(\d+)h)?(?:(\d+)m)?(\d+(?:\.\d+)?)s`)
	})
	retryIn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)Please retry in ([0-9.]+)(ms|s)`)
	})
)

// maxHint caps a hint read from a body (a day): larger numbers are noise.
const maxHint = 24 * time.Hour

// retryHint is the wait an error response asks for: the headers
// x-ratelimit-reset (a Unix time in seconds) and x-ratelimit-reset-after
// (seconds), then a RetryInfo detail of the body, then the body's "reset
// after …" or "Please retry in …" text; 0 when none says. (Retry-After
// itself is read by core/ai.)
func retryHint(h http.Header, body []byte, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("x-ratelimit-reset")); v != "" {
		if s, err := strconv.ParseInt(v, 10, 64); err == nil {
			if d := time.Unix(s, 0).Sub(now); d > 0 && d <= maxHint {
				return d
			}
		}
	}
	if v := strings.TrimSpace(h.Get("x-ratelimit-reset-after")); v != "" {
		if d := seconds(v, 1); d > 0 {
			return d
		}
	}
	if d := google.RetryInfoDelay(body); d > 0 {
		return d
	}
	text := string(body)
	if m := resetAfter().FindStringSubmatch(text); m != nil {
		h, _ := strconv.Atoi(m[1])
		min, _ := strconv.Atoi(m[2])
		if h <= 24 && min <= 24*60 {
			if d := seconds(m[3], 1) + time.Duration(h)*time.Hour + time.Duration(min)*time.Minute; d > 0 && d <= maxHint {
				return d
			}
		}
	}
	if m := retryIn().FindStringSubmatch(text); m != nil {
		unit := 1.0
		if strings.EqualFold(m[2], "ms") {
			unit = 0.001
		}
		if d := seconds(m[1], unit); d > 0 {
			return d
		}
	}
	return 0
}

// seconds parses a non-negative decimal count of units (in seconds) up
// to maxHint.
func seconds(s string, unit float64) time.Duration {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || f*unit > maxHint.Seconds() {
		return 0
	}
	return time.Duration(f * unit * float64(time.Second))
}

// RetryHint is the wait a Cloud Code Assist error answer asks for, read
// as the provider reads it (see retryHint); web search's Gemini grounding
// retries by it too.
func RetryHint(h http.Header, body []byte, now time.Time) time.Duration {
	return retryHint(h, body, now)
}
