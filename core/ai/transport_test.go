package ai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPostHooksAndHeaders(t *testing.T) {
	var gotBody string
	var gotHeader http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		gotBody, gotHeader = string(data), r.Header.Clone()
		w.Header().Set("X-Upstream", "u1")
		w.WriteHeader(200)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	var seen *ProviderResponse
	req := &Request{
		Model:   &Model{ID: "m", Headers: map[string]string{"X-Model": "m", "X-Both": "model"}},
		Headers: map[string]string{"X-Both": "request"},
		OnRequest: func(_ context.Context, p *ProviderRequest) error {
			if !strings.Contains(string(p.Payload), `"a":1`) || p.RequestID == "" {
				t.Errorf("hook saw %s id %q", p.Payload, p.RequestID)
			}
			p.Payload = json.RawMessage(`{"replaced":true}`)
			return nil
		},
		OnResponse: func(_ context.Context, r *ProviderResponse) { seen = r },
	}
	resp, err := Post(context.Background(), nil, req, srv.URL, http.Header{"X-Default": {"d"}}, map[string]int{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if gotBody != `{"replaced":true}` {
		t.Errorf("server got %s", gotBody)
	}
	if gotHeader.Get("X-Default") != "d" || gotHeader.Get("X-Model") != "m" || gotHeader.Get("X-Both") != "request" {
		t.Errorf("headers %v", gotHeader)
	}
	if seen == nil || seen.Status != 200 || seen.Headers.Get("X-Upstream") != "u1" || seen.RequestID != req.RequestID {
		t.Errorf("OnResponse saw %+v", seen)
	}
}

func TestPostHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "12")
		w.WriteHeader(429)
		io.WriteString(w, `{"type":"error","error":{"type":"rate_limit_error","message":"Too fast"}}`)
	}))
	defer srv.Close()
	_, err := Post(context.Background(), nil, &Request{}, srv.URL, nil, struct{}{})
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 429 || he.RetryAfter.Seconds() != 12 {
		t.Fatalf("got %v", err)
	}
	if got := FormatError(err); got != "HTTP 429 Too Many Requests: rate_limit_error: Too fast (retry after 12s)" {
		t.Errorf("message %q", got)
	}
}

func TestPostHookErrorAndBadPayload(t *testing.T) {
	req := &Request{OnRequest: func(context.Context, *ProviderRequest) error { return errors.New("blocked by policy") }}
	if _, err := Post(context.Background(), nil, req, "http://127.0.0.1:1", nil, 1); err == nil || !strings.Contains(err.Error(), "blocked by policy") {
		t.Errorf("hook error: %v", err)
	}
	req = &Request{OnRequest: func(_ context.Context, p *ProviderRequest) error { p.Payload = json.RawMessage("{"); return nil }}
	if _, err := Post(context.Background(), nil, req, "http://127.0.0.1:1", nil, 1); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("bad payload: %v", err)
	}
}

func TestStreamRequestUnknownAPI(t *testing.T) {
	s := StreamRequest(context.Background(), &Request{Model: &Model{API: "nope"}}, nil)
	evs, final := s.Collect()
	if len(evs) != 1 || evs[0].Type != EventError || !strings.Contains(final.ErrorMessage, `no provider for API "nope"`) {
		t.Errorf("got %+v %q", evs, final.ErrorMessage)
	}
}
