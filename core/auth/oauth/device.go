package oauth

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// Device-flow polling (RFC 8628 §3.4–3.5) as omp paces it: every wait is
// the interval times a margin (1.2, or 1.4 once the server has said
// slow_down), never less than a second.
const (
	deviceMargin     = 1.2
	deviceSlowMargin = 1.4
	deviceMinWait    = time.Second
	deviceSlowStep   = 5 * time.Second // added to the interval on slow_down when the server names none
)

// deviceGrant is a device authorization answer.
type deviceGrant struct {
	DeviceCode      string   `json:"device_code"`
	UserCode        string   `json:"user_code"`
	VerificationURI string   `json:"verification_uri"`
	Interval        *float64 `json:"interval"`   // seconds between polls
	ExpiresIn       *float64 `json:"expires_in"` // seconds the codes live
}

// devicePoll is an answer to one poll: a token, or why there is none yet.
type devicePoll struct {
	AccessToken string   `json:"access_token"`
	Error       string   `json:"error"`
	Description string   `json:"error_description"`
	Interval    *float64 `json:"interval"`
}

// devicePoller polls a token endpoint until the user has entered the code.
// sleep and now are the clock, so tests step through the waits without
// sleeping.
type devicePoller struct {
	HTTP
	Provider string
	URL      string
	Body     func(deviceCode string) any
	Header   map[string]string
	now      clock
	sleep    waitFunc
}

// poll waits for the access token of g.
func (p devicePoller) poll(ctx context.Context, g deviceGrant) (string, error) {
	interval := max(deviceMinWait, seconds(*g.Interval))
	margin := deviceMargin
	deadline := p.now.now().Add(seconds(*g.ExpiresIn))
	slowDowns := 0
	for {
		left := deadline.Sub(p.now.now())
		if left <= 0 {
			break
		}
		wait := min(time.Duration(math.Ceil(float64(interval)*margin)), left)
		if err := p.sleep.wait(ctx, wait); err != nil {
			return "", err
		}
		var a devicePoll
		if err := p.callJSON(ctx, p.Provider, "device sign-in", http.MethodPost, p.URL, p.Body(g.DeviceCode), p.Header, &a); err != nil {
			return "", err
		}
		switch {
		case a.AccessToken != "":
			return a.AccessToken, nil
		case a.Error == "authorization_pending":
		case a.Error == "slow_down":
			slowDowns++
			if a.Interval != nil && *a.Interval > 0 {
				interval = seconds(*a.Interval)
			} else {
				interval = max(deviceMinWait, interval+deviceSlowStep)
			}
			margin = deviceSlowMargin
		case a.Error != "":
			return "", &Error{Provider: p.Provider, Step: "device sign-in", Code: oneLine(a.Error), Detail: oneLine(a.Description), Relogin: true}
		default:
			return "", &Error{Provider: p.Provider, Step: "device sign-in", Detail: "the answer carries neither a token nor an error"}
		}
	}
	detail := "the code expired before it was entered"
	if slowDowns > 0 {
		detail += " (the server asked to slow down; a clock that drifts, as in WSL or a VM, causes this: sync it)"
	}
	return "", &Error{Provider: p.Provider, Step: "device sign-in", Detail: detail}
}

// waitFunc waits d, or less when ctx ends (then it returns ctx's error);
// tests replace it with a clock that steps without sleeping.
type waitFunc func(ctx context.Context, d time.Duration) error

// wait runs w, or a real timer when w is nil.
func (w waitFunc) wait(ctx context.Context, d time.Duration) error {
	if w != nil {
		return w(ctx, d)
	}
	return ctxsleep.Sleep(ctx, d)
}

// seconds converts a count of seconds from a JSON answer.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// valid reports whether a device authorization answer has every field the
// flow needs.
func (g deviceGrant) valid() bool {
	return g.DeviceCode != "" && g.UserCode != "" && g.VerificationURI != "" && g.Interval != nil && g.ExpiresIn != nil
}
