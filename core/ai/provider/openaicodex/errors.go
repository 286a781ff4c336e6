package openaicodex

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// loginHint is what a user does about a refused or exhausted sign-in.
const loginHint = "gopi login openai-codex"

// UsageLimitError is the backend's answer when the subscription's usage
// for the current window is spent (error code usage_limit_reached or
// usage_not_included). Retrying with the same sign-in is futile until the
// window resets, so the message is not one ai.IsRetryable accepts.
type UsageLimitError struct {
	Plan     string        // the ChatGPT plan ("plus", "pro", …); "" when not given
	ResetsIn time.Duration // time until the window resets; 0 when unknown
	Message  string        // the backend's own message
}

// Error says what happened, when it ends and what to do, in one line.
func (e *UsageLimitError) Error() string {
	s := "ChatGPT usage limit reached"
	if e.Plan != "" {
		s += " (" + e.Plan + " plan)"
	}
	if e.ResetsIn > 0 {
		s += fmt.Sprintf("; it resets in about %d min", minutes(e.ResetsIn))
	}
	return s + "; wait, or sign in with another ChatGPT account: " + loginHint
}

// RateWindow is one usage window the backend reports in x-codex-primary-*
// or x-codex-secondary-* headers.
type RateWindow struct {
	UsedPercent float64 // share of the window used, 0–100
	Minutes     int     // window length
	ResetAt     int64   // Unix seconds when it resets; 0 when unknown
}

// RateWindows reads the primary and secondary windows from response
// headers; ok is false when neither reports a used percentage.
func RateWindows(h http.Header) (primary, secondary RateWindow, ok bool) {
	read := func(prefix string) (RateWindow, bool) {
		var w RateWindow
		used, err := strconv.ParseFloat(strings.TrimSpace(h.Get(prefix+"-used-percent")), 64)
		if err != nil || math.IsNaN(used) || math.IsInf(used, 0) {
			return w, false
		}
		w.UsedPercent = used
		w.Minutes, _ = strconv.Atoi(strings.TrimSpace(h.Get(prefix + "-window-minutes")))
		w.ResetAt, _ = strconv.ParseInt(strings.TrimSpace(h.Get(prefix+"-reset-at")), 10, 64)
		return w, true
	}
	primary, p := read("x-codex-primary")
	secondary, s := read("x-codex-secondary")
	return primary, secondary, p || s
}

// backendError is the error object of the backend's JSON error body.
type backendError struct {
	Code     any    `json:"code"`
	Type     any    `json:"type"`
	Message  string `json:"message"`
	PlanType string `json:"plan_type"`
	ResetsAt int64  `json:"resets_at"`
}

// explainError turns an HTTP error of the backend into what a user can act
// on (see the package doc); other errors pass through.
func explainError(err error, now time.Time) error {
	var he *ai.HTTPError
	if !errors.As(err, &he) {
		return err
	}
	var body struct {
		Error  backendError `json:"error"`
		Detail any          `json:"detail"` // the backend's other error shape: {"detail": "…"}
	}
	_ = json.Unmarshal(he.Body, &body)
	e := body.Error
	msg := e.Message
	if msg == "" {
		msg = text(body.Detail)
	}
	out := *he
	if e.Message == "" && msg != "" {
		out.Message = msg // the {"detail"} shape, which ai.Post leaves as raw JSON
	}
	code := strings.ToLower(text(e.Code))
	if code == "" {
		code = strings.ToLower(text(e.Type))
	}
	resetAt := e.ResetsAt
	if resetAt == 0 {
		p, s, _ := RateWindows(he.Header)
		resetAt = p.ResetAt
		if resetAt == 0 {
			resetAt = s.ResetAt
		}
	}
	var resetsIn time.Duration
	if resetAt > 0 {
		resetsIn = max(time.Unix(resetAt, 0).Sub(now), 0)
	}
	switch {
	case strings.Contains(code, "usage_limit_reached") || strings.Contains(code, "usage_not_included"):
		return &UsageLimitError{Plan: strings.ToLower(strings.Join(strings.Fields(e.PlanType), " ")), ResetsIn: resetsIn, Message: msg}
	case strings.Contains(code, "rate_limit_exceeded") || he.Status == http.StatusTooManyRequests:
		out.Message = "ChatGPT rate limit exceeded"
		if msg != "" {
			out.Message += " (" + msg + ")"
		}
		if resetsIn > 0 {
			out.Message += fmt.Sprintf("; try again in about %d min", minutes(resetsIn))
		}
	case he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden:
		out.Message += "; sign in again: " + loginHint
	case out.Message == he.Message:
		return err
	}
	return &out
}

// minutes rounds d to whole minutes.
func minutes(d time.Duration) int64 { return int64(d.Round(time.Minute) / time.Minute) }

// text renders a JSON string field that may also be a number or null.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}
