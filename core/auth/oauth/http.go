package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds one request to a sign-in server when the provider
// sets no Timeout.
const DefaultTimeout = 30 * time.Second

// maxBody bounds how much of a sign-in server's answer is read.
const maxBody = 1 << 20

// HTTP is how a provider reaches its sign-in servers: the client and the
// limit on each request.
type HTTP struct {
	Client  *http.Client  // nil: http.DefaultClient
	Timeout time.Duration // per request; 0: DefaultTimeout
}

// reply is a server's answer: its status and (bounded) body.
type reply struct {
	Status int
	Body   []byte
}

// ok reports a 2xx status.
func (r reply) ok() bool { return r.Status >= 200 && r.Status < 300 }

// newRequest builds a request whose body is form values (url.Values), JSON
// (any other non-nil value) or empty (nil).
func newRequest(method, target string, body any, header map[string]string) (*http.Request, error) {
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd, ctype = bytes.NewReader(data), "application/json"
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return req, nil
}

// do sends req under ctx and the per-request timeout and reads the answer.
// A transport failure is returned as is; a non-2xx status is a reply, for
// the caller to judge.
func (h HTTP) do(ctx context.Context, req *http.Request) (reply, error) {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := h.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return reply{}, err
	}
	return reply{Status: resp.StatusCode, Body: body}, nil
}

// call builds and sends one request; failures come back as *Error for the
// provider and step.
func (h HTTP) call(ctx context.Context, provider, step, method, target string, body any, header map[string]string) (reply, error) {
	req, err := newRequest(method, target, body, header)
	if err != nil {
		return reply{}, &Error{Provider: provider, Step: step, Err: err}
	}
	r, err := h.do(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return reply{}, ctx.Err()
		}
		return reply{}, &Error{Provider: provider, Step: step, Err: err}
	}
	if !r.ok() {
		return r, statusError(provider, step, r)
	}
	return r, nil
}

// callJSON is call that decodes a 2xx answer into out.
func (h HTTP) callJSON(ctx context.Context, provider, step, method, target string, body any, header map[string]string, out any) error {
	r, err := h.call(ctx, provider, step, method, target, body, header)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r.Body, out); err != nil {
		return &Error{Provider: provider, Step: step, Status: r.Status, Detail: "the answer is not the JSON expected: " + err.Error()}
	}
	return nil
}

// serverError is the error body OAuth servers send (RFC 6749 §5.2), and the
// {"error": {"message": …}} form Google's APIs use.
type serverError struct {
	Error       json.RawMessage `json:"error"`
	Description string          `json:"error_description"`
}

// statusError turns a non-2xx answer into an *Error. A 4xx other than 408
// and 429 means the grant or the request was refused: only a new sign-in
// helps.
func statusError(provider, step string, r reply) *Error {
	e := &Error{Provider: provider, Step: step, Status: r.Status}
	e.Relogin = r.Status >= 400 && r.Status < 500 && r.Status != http.StatusRequestTimeout && r.Status != http.StatusTooManyRequests
	var se serverError
	if json.Unmarshal(r.Body, &se) == nil && len(se.Error) > 0 {
		var code string
		var nested struct {
			Message string `json:"message"`
			Status  string `json:"status"`
		}
		switch {
		case json.Unmarshal(se.Error, &code) == nil:
			e.Code = oneLine(code)
		case json.Unmarshal(se.Error, &nested) == nil:
			e.Code = oneLine(nested.Status)
			se.Description = nested.Message
		}
		e.Detail = oneLine(se.Description)
		return e
	}
	if text := http.StatusText(r.Status); text != "" {
		e.Detail = text
	} else {
		e.Detail = fmt.Sprintf("HTTP %d", r.Status)
	}
	return e
}
