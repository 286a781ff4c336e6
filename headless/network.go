package headless

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// MaxResponseBody bounds the bytes of a response body handed back to a
// script (Response.Body).
const MaxResponseBody = 8 << 20

// Response is one HTTP response the page received.
type Response struct {
	RequestID  string            `json:"-"`
	URL        string            `json:"url"`
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	Headers    map[string]string `json:"headers"` // names in lower case

	MIMEType  string `json:"mimeType"`
	FromCache bool   `json:"fromCache"`
}

// ResponseWatch receives the responses of a Tab's page from the moment
// WatchResponses returned until Stop.
type ResponseWatch struct {
	C    <-chan *Response // the responses, in order
	stop context.CancelFunc
	done chan struct{}
}

// Stop ends the watch; it returns once the listener is gone.
func (w *ResponseWatch) Stop() {
	w.stop()
	<-w.done
}

// WatchResponses starts listening to the page's responses. The page's
// network events stay on afterwards, so Body can read the bodies of
// responses seen. The watch ends with ctx or Stop.
func (t *Tab) WatchResponses(ctx context.Context) (*ResponseWatch, error) {
	if err := t.enableNetwork(ctx); err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(ctx)
	ch := make(chan *Response, 64)
	wait := t.page.Context(lctx).EachEvent(func(e *proto.NetworkResponseReceived) {
		r := e.Response
		resp := &Response{RequestID: string(e.RequestID), URL: r.URL, Status: r.Status, StatusText: r.StatusText,
			Headers: map[string]string{}, MIMEType: r.MIMEType, FromCache: r.FromDiskCache || r.FromPrefetchCache}
		for k, v := range r.Headers {
			resp.Headers[strings.ToLower(k)] = v.String()
		}
		select {
		case ch <- resp:
		case <-lctx.Done():
		}
	})
	w := &ResponseWatch{C: ch, stop: cancel, done: make(chan struct{})}
	go func() { defer close(w.done); wait() }()
	return w, nil
}

// enableNetwork turns the page's network events on, once.
func (t *Tab) enableNetwork(ctx context.Context) error {
	t.netOnce.Do(func() { t.netErr = proto.NetworkEnable{}.Call(t.page.Context(ctx)) })
	if t.netErr != nil {
		return fmt.Errorf("enable network events: %w", t.netErr)
	}
	return nil
}

// netState is what enableNetwork keeps.
type netState struct {
	netOnce sync.Once
	netErr  error
}

// Body returns the body of response r, waiting until it has finished
// loading (within ctx); at most MaxResponseBody bytes.
func (t *Tab) Body(ctx context.Context, r *Response) ([]byte, error) {
	p := t.page.Context(ctx)
	id := proto.NetworkRequestID(r.RequestID)
	// Listen for the end of the load first, so that it cannot pass unseen
	// between a failed read and the wait.
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ended := make(chan error, 1)
	wait := p.Context(lctx).EachEvent(func(e *proto.NetworkLoadingFinished) bool {
		if e.RequestID != id {
			return false
		}
		ended <- nil
		return true
	}, func(e *proto.NetworkLoadingFailed) bool {
		if e.RequestID != id {
			return false
		}
		ended <- fmt.Errorf("the response of %s failed to load: %s", r.URL, e.ErrorText)
		return true
	})
	done := make(chan struct{})
	go func() { defer close(done); wait() }()
	defer func() { cancel(); <-done }()
	for range 2 {
		body, err := proto.NetworkGetResponseBody{RequestID: id}.Call(p)
		if err == nil {
			data := []byte(body.Body)
			if body.Base64Encoded {
				if data, err = base64.StdEncoding.DecodeString(body.Body); err != nil {
					return nil, err
				}
			}
			if len(data) > MaxResponseBody {
				return nil, fmt.Errorf("the response body of %s is over %d MiB: read a smaller resource", r.URL, MaxResponseBody>>20)
			}
			return data, nil
		}
		select {
		case err := <-ended:
			if err != nil {
				return nil, err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, errors.New("the response body of " + r.URL + " is not available (the page may have navigated away)")
}
