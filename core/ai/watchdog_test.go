package ai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A server that never answers, or stops in the middle of a stream, fails
// the request with a StallError instead of hanging.
func TestWatchdogStalls(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/silent" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.WriteHeader(200)
		io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release) // runs before srv.Close: handlers return first

	req := &Request{Model: &Model{ID: "m"}, FirstEventTimeout: 100 * time.Millisecond, IdleTimeout: 100 * time.Millisecond}
	start := time.Now()
	_, err := Post(context.Background(), nil, req, srv.URL+"/silent", nil, map[string]int{})
	var se *StallError
	if !errors.As(err, &se) || !se.First || time.Since(start) > 3*time.Second {
		t.Fatalf("silent server: %v after %s", err, time.Since(start))
	}
	if !IsRetryable(&AssistantMessage{StopReason: StopReasonError, ErrorMessage: FormatError(err)}) {
		t.Errorf("a stall is not retryable: %q", FormatError(err))
	}

	resp, err := Post(context.Background(), nil, req, srv.URL+"/stalls", nil, map[string]int{})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if !errors.As(err, &se) || se.First || !strings.Contains(string(data), "first") {
		t.Fatalf("stalled stream: %q, %v", data, err)
	}

	// Disabled watchdogs let a slow answer through.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		io.WriteString(w, "late")
	}))
	defer slow.Close()
	req = &Request{Model: &Model{ID: "m"}, FirstEventTimeout: -1, IdleTimeout: -1}
	resp, err = Post(context.Background(), nil, req, slow.URL, nil, map[string]int{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(data) != "late" {
		t.Fatalf("got %q", data)
	}
}

// Send guards a request built elsewhere (an SDK's signed request) with the
// same watchdogs as Post, keeping its method, headers and body.
func TestSendWatchesForeignRequest(t *testing.T) {
	release := make(chan struct{})
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- r.Method + " " + r.Header.Get("Authorization") + " " + string(body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	hr, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL, strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	hr.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=x")
	req := &Request{FirstEventTimeout: 100 * time.Millisecond}
	_, err = Send(nil, req, hr)
	var se *StallError
	if !errors.As(err, &se) || !se.First {
		t.Fatalf("silent server: %v", err)
	}
	if s := <-got; s != `POST AWS4-HMAC-SHA256 Credential=x {"a":1}` {
		t.Errorf("server saw %q", s)
	}
}
