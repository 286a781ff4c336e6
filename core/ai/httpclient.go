package ai

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// DefaultConnectTimeout bounds connecting to a provider (TCP connect plus
// TLS handshake) when no other limit is set.
const DefaultConnectTimeout = 30 * time.Second

// ConnectError is the failure to reach a provider within the connect
// timeout.
type ConnectError struct {
	Addr    string        // host:port dialled
	Timeout time.Duration // the limit that ran out
	Err     error         // the dialer's or handshake's error
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("could not connect to the provider at %s: timed out after %s (check the base URL and network, or allow longer with the provider.connectTimeoutMs setting or PI_STREAM_CONNECT_TIMEOUT_MS)", e.Addr, e.Timeout)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// NewHTTPClient returns the client for provider requests. connect bounds
// dialing and the TLS handshake: 0 means DefaultConnectTimeout, negative
// means no limit. The client sets no whole-request timeout, which would cut
// long answers: streams are bounded by the first-event and idle watchdogs
// of Post (Request.FirstEventTimeout, Request.IdleTimeout).
func NewHTTPClient(connect time.Duration) *http.Client {
	if connect == 0 {
		connect = DefaultConnectTimeout
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.IdleConnTimeout = 90 * time.Second
	if connect < 0 {
		t.TLSHandshakeTimeout = 0
		return &http.Client{Transport: t}
	}
	dialer := &net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil && isTimeout(err) && ctx.Err() == nil {
			return nil, &ConnectError{Addr: addr, Timeout: connect, Err: err}
		}
		return c, err
	}
	t.TLSHandshakeTimeout = connect
	return &http.Client{Transport: t}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
