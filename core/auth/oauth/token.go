package oauth

import (
	"context"
	"net/http"
	"time"
)

// tokenAnswer is a token endpoint's answer (RFC 6749 §5.1), with the
// account block Anthropic adds.
type tokenAnswer struct {
	AccessToken  string  `json:"access_token"`
	RefreshToken string  `json:"refresh_token"`
	ExpiresIn    float64 `json:"expires_in"` // seconds
	Account      *struct {
		UUID  string `json:"uuid"`
		Email string `json:"email_address"`
	} `json:"account"`
}

// expiry is when the access token lapses, in Unix ms, less margin (some
// providers store the expiry early, as omp does, so both programs refresh
// at the same moment).
func (t tokenAnswer) expiry(now time.Time, margin time.Duration) int64 {
	return now.Add(time.Duration(t.ExpiresIn*float64(time.Second)) - margin).UnixMilli()
}

// tokenCall posts body (url.Values or JSON) to a token endpoint and decodes
// the answer; an answer without an access token is an error.
func (h HTTP) tokenCall(ctx context.Context, provider, step, endpoint string, body any) (tokenAnswer, error) {
	var t tokenAnswer
	if err := h.callJSON(ctx, provider, step, http.MethodPost, endpoint, body, nil, &t); err != nil {
		return t, err
	}
	if t.AccessToken == "" {
		return t, &Error{Provider: provider, Step: step, Detail: "the answer carries no access token"}
	}
	return t, nil
}

// clock is a provider's source of the current time; nil is time.Now.
type clock func() time.Time

// now reads the clock.
func (c clock) now() time.Time {
	if c == nil {
		return time.Now()
	}
	return c()
}
