package main

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"
)

// readPast is an HTTP transport that reports when the client has handled
// a response body up to a text: it closes Seen when the client asks for
// more after the bytes holding the text were read (a provider reads the
// next bytes only once it has handled every event before them).
type readPast struct {
	Text string
	Seen chan struct{}
	once sync.Once
}

// newReadPast returns a readPast for text.
func newReadPast(text string) *readPast {
	return &readPast{Text: text, Seen: make(chan struct{})}
}

// Client returns an HTTP client using the transport.
func (rp *readPast) Client() *http.Client { return &http.Client{Transport: rp} }

// RoundTrip sends req with the default transport and watches the body.
func (rp *readPast) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = &pastBody{ReadCloser: resp.Body, rp: rp}
	}
	return resp, err
}

// pastBody is a response body that keeps what was read until the text
// shows up in it.
type pastBody struct {
	io.ReadCloser
	rp    *readPast
	read  []byte
	found bool
}

func (b *pastBody) Read(p []byte) (int, error) {
	if b.found {
		b.rp.once.Do(func() { close(b.rp.Seen) })
	}
	n, err := b.ReadCloser.Read(p)
	if !b.found {
		b.read = append(b.read, p[:n]...)
		b.found = bytes.Contains(b.read, []byte(b.rp.Text))
	}
	return n, err
}

func TestReadPast(t *testing.T) {
	t.Parallel()
	rp := newReadPast("needle")
	body := &pastBody{ReadCloser: io.NopCloser(bytes.NewReader([]byte("hay needle hay"))), rp: rp}
	buf := make([]byte, 8)
	seen := func() bool {
		select {
		case <-rp.Seen:
			return true
		default:
			return false
		}
	}
	if _, err := body.Read(buf); err != nil || seen() { // "hay need"
		t.Fatalf("after the first read: %v, seen %v", err, seen())
	}
	if _, err := body.Read(buf); err != nil || seen() { // "le hay": read, not yet handled
		t.Fatalf("after the read holding the text: %v, seen %v", err, seen())
	}
	body.Read(buf)
	if !seen() {
		t.Fatal("the next read after the text did not report it")
	}
}
