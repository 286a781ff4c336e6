package bedrock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/gopi-agent/gopi/core/ai"
)

// transport is the SDK's HTTP client for one request: it sends the signed
// request through ai.Send, so the first-event and idle watchdogs guard it
// like every other provider's, runs the after_provider_response hook on
// the status and headers, and keeps the headers for error mapping (a
// Retry-After hint).
type transport struct {
	client *http.Client
	req    *ai.Request

	mu     sync.Mutex
	header http.Header // headers of the last response
}

// Do sends one HTTP request; it satisfies the SDK's HTTPClient.
func (t *transport) Do(hr *http.Request) (*http.Response, error) {
	// Send a copy of the body the SDK does not own: the SDK closes its
	// body as soon as Do returns, and net/http may still be reading it to
	// check for bytes past Content-Length; the closed body then reports an
	// error and net/http drops the connection under the streaming answer.
	if hr.Body != nil && hr.Body != http.NoBody {
		data, err := io.ReadAll(hr.Body)
		hr.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("read the request body: %w", err)
		}
		hr = hr.WithContext(hr.Context())
		hr.Body = io.NopCloser(bytes.NewReader(data))
		hr.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		hr.ContentLength = int64(len(data))
	}
	resp, err := ai.Send(t.client, t.req, hr)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.header = resp.Header.Clone()
	t.mu.Unlock()
	if t.req.OnResponse != nil {
		t.req.OnResponse(hr.Context(), &ai.ProviderResponse{RequestID: t.req.RequestID, Model: t.req.Model, Status: resp.StatusCode, Headers: resp.Header.Clone()})
	}
	return resp, nil
}

// responseHeader returns the headers of the last response (nil before one).
func (t *transport) responseHeader() http.Header {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.header
}

// payloadHook runs the before_provider_request hook on the JSON body the
// SDK serialized, before the request is signed, and puts the hook's
// replacement in its place (the signature then covers what is sent).
type payloadHook struct {
	req *ai.Request
}

// AfterSerialization satisfies smithyhttp.AfterSerializationInterceptor.
func (h payloadHook) AfterSerialization(ctx context.Context, in *smithyhttp.InterceptorContext) error {
	if h.req.OnRequest == nil || in.Request == nil {
		return nil
	}
	var body []byte
	if s := in.Request.GetStream(); s != nil {
		data, err := io.ReadAll(s)
		if err != nil {
			return fmt.Errorf("read the serialized request: %w", err)
		}
		body = data
	}
	u := ""
	if in.Request.URL != nil {
		u = in.Request.URL.String()
	}
	pr := &ai.ProviderRequest{RequestID: h.req.RequestID, Model: h.req.Model, URL: u, Payload: body}
	if err := h.req.OnRequest(ctx, pr); err != nil {
		return &hookError{fmt.Errorf("before_provider_request hook: %w", err)}
	}
	if !json.Valid(pr.Payload) {
		return &hookError{errors.New("before_provider_request hook returned a payload that is not valid JSON")}
	}
	r, err := in.Request.SetStream(bytes.NewReader(pr.Payload))
	if err != nil {
		return err
	}
	*in.Request = *r
	return nil
}

// hookError is a failure of the request hook, passed through unchanged by
// the error mapping.
type hookError struct{ err error }

func (e *hookError) Error() string { return e.err.Error() }
func (e *hookError) Unwrap() error { return e.err }

// headersOption adds the model's headers, then the request's, to the HTTP
// request before it is signed.
func headersOption(req *ai.Request) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		if len(req.Headers) == 0 && (req.Model == nil || len(req.Model.Headers) == 0) {
			return nil
		}
		return stack.Build.Add(middleware.BuildMiddlewareFunc("gopiHeaders", func(ctx context.Context, in middleware.BuildInput, next middleware.BuildHandler) (middleware.BuildOutput, middleware.Metadata, error) {
			if r, ok := in.Request.(*smithyhttp.Request); ok {
				if req.Model != nil {
					for k, v := range req.Model.Headers {
						r.Header.Set(k, v)
					}
				}
				for k, v := range req.Headers {
					r.Header.Set(k, v)
				}
			}
			return next.HandleBuild(ctx, in)
		}), middleware.After)
	}
}
