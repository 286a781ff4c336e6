package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Post sends one JSON request for req and returns the response once its
// status is 2xx. It runs the request's hooks: OnRequest with the marshalled
// payload (which it may replace) and OnResponse with status and headers.
// Headers are applied in order: defaults given here, the model's headers,
// then the request's headers. A non-2xx status returns an *HTTPError with
// the provider's message and retry-after hint (the body is closed). A
// watchdog fails the request with a *StallError when the response does not
// start within the first-event timeout or goes silent for the idle timeout
// (Request.FirstEventTimeout, Request.IdleTimeout).
func Post(ctx context.Context, client *http.Client, req *Request, url string, headers http.Header, payload any) (*http.Response, error) {
	hr, err := NewRequest(ctx, req, url, headers, payload)
	if err != nil {
		return nil, err
	}
	id := req.RequestID
	resp, err := Send(client, req, hr)
	if err != nil {
		return nil, err
	}
	if req.OnResponse != nil {
		req.OnResponse(ctx, &ProviderResponse{RequestID: id, Model: req.Model, Status: resp.StatusCode, Headers: resp.Header.Clone()})
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return nil, &HTTPError{
			Status:     resp.StatusCode,
			Message:    errorBodyMessage(data),
			RetryAfter: ParseRetryAfter(resp.Header, time.Now()),
			RequestID:  id,
			Body:       data,
			Header:     resp.Header.Clone(),
		}
	}
	return resp, nil
}

// Send does hr with client under req's watchdogs: the request fails with a
// *StallError when the response does not start within the first-event
// timeout, and reading its body fails with one when the stream goes silent
// for the idle timeout (Request.FirstEventTimeout, Request.IdleTimeout).
// Closing the body disarms the watchdog. It is the part of Post after the
// hooks, for providers that sign the finished request before it is sent
// (Bedrock: NewRequest, sign, Send).
func Send(client *http.Client, req *Request, hr *http.Request) (*http.Response, error) {
	if client == nil {
		client = http.DefaultClient
	}
	wctx, cancel := context.WithCancelCause(hr.Context())
	first, idle := req.timeouts()
	dog := newWatchdog(cancel, first, idle)
	resp, err := client.Do(hr.WithContext(wctx))
	if err != nil {
		dog.stop()
		cancel(nil)
		if s := dog.stall(); s != nil {
			return nil, s
		}
		return nil, err
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, dog: dog, cancel: cancel}
	return resp, nil
}

// NewRequest builds the JSON POST of payload to url for req, the part of
// Post before sending: the OnRequest hook sees the marshalled payload and
// may replace it; headers are applied in order: defaults (JSON content,
// an event-stream Accept), those given here, the model's, then the
// request's. Providers that must sign the final request (Bedrock's SigV4)
// build it here, sign it, and send it with Send.
func NewRequest(ctx context.Context, req *Request, url string, headers http.Header, payload any) (*http.Request, error) {
	id := req.EnsureRequestID()
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("encode request body: %w", err)
	}
	if req.OnRequest != nil {
		pr := &ProviderRequest{RequestID: id, Model: req.Model, URL: url, Payload: body}
		if err := req.OnRequest(ctx, pr); err != nil {
			return nil, fmt.Errorf("before_provider_request hook: %w", err)
		}
		if !json.Valid(pr.Payload) {
			return nil, fmt.Errorf("before_provider_request hook returned a payload that is not valid JSON")
		}
		body = pr.Payload
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request for %s: %w", url, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream")
	for k, vs := range headers {
		hr.Header[http.CanonicalHeaderKey(k)] = vs
	}
	if req.Model != nil {
		for k, v := range req.Model.Headers {
			hr.Header.Set(k, v)
		}
	}
	for k, v := range req.Headers {
		hr.Header.Set(k, v)
	}
	return hr, nil
}

// JoinURL joins a base URL and a path with exactly one slash between them.
func JoinURL(base, path string) string {
	for len(base) > 0 && base[len(base)-1] == '/' {
		base = base[:len(base)-1]
	}
	for len(path) > 0 && path[0] == '/' {
		path = path[1:]
	}
	return base + "/" + path
}
