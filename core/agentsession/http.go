package agentsession

import (
	"net"
	"net/http"
	"time"
)

// defaultHTTPClient bounds everything but the streamed body: dialing, the
// TLS handshake and idle connections. A whole-request timeout would cut
// long answers; streams are guarded by core/ai's first-event and idle
// watchdogs instead.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 30 * time.Second
	t.IdleConnTimeout = 90 * time.Second
	return &http.Client{Transport: t}
}
