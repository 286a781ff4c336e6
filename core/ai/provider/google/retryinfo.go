package google

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// retryInfoTransport copies the retry delay Gemini puts in an error body
// (a google.rpc.RetryInfo detail: {"retryDelay": "30s"}) into a Retry-After
// header when the response has none, so ai.Post's retry-after handling —
// and the " (retry after Ns)" hint in the error message — work for Gemini
// as for the other APIs.
type retryInfoTransport struct {
	base  http.RoundTripper
	delay func(h http.Header, body []byte) time.Duration
}

func (t retryInfoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode < 400 || resp.Header.Get("Retry-After") != "" || resp.Header.Get("Retry-After-Ms") != "" {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if rerr == nil {
		if d := t.delay(resp.Header, body); d > 0 {
			resp.Header.Set("Retry-After", strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
		}
	}
	return resp, nil
}

// RetryInfoDelay finds a RetryInfo detail's delay in a Google error body
// (0 when there is none).
func RetryInfoDelay(body []byte) time.Duration {
	var v struct {
		Error struct {
			Details []struct {
				Type       string `json:"@type"`
				RetryDelay string `json:"retryDelay"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return 0
	}
	for _, d := range v.Error.Details {
		if d.RetryDelay == "" {
			continue
		}
		if dur, err := time.ParseDuration(d.RetryDelay); err == nil && dur > 0 {
			return dur
		}
	}
	return 0
}

// WithRetryInfo returns a client like c (http.DefaultClient when nil) whose
// transport adds Retry-After from the RetryInfo detail of Google error
// bodies.
func WithRetryInfo(c *http.Client) *http.Client {
	return WithRetryHint(c, func(_ http.Header, body []byte) time.Duration { return RetryInfoDelay(body) })
}

// WithRetryHint is WithRetryInfo with another reading of an error response
// without Retry-After: delay returns the wait its headers or body ask
// for, or 0.
func WithRetryHint(c *http.Client, delay func(h http.Header, body []byte) time.Duration) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cc := *c
	cc.Transport = retryInfoTransport{base: base, delay: delay}
	return &cc
}
