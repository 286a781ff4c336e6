package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestStatusErrorForms(t *testing.T) {
	for _, tc := range []struct {
		status  int
		body    string
		want    string
		relogin bool
	}{
		{400, `{"error":"invalid_grant","error_description":"Token has been expired or revoked."}`, "(400 invalid_grant: Token has been expired or revoked.)", true},
		{403, `{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}`, "(403 PERMISSION_DENIED: The caller does not have permission)", true},
		{429, `{"error":"rate_limited"}`, "(429 rate_limited)", false},
		{502, `<html>bad gateway</html>`, "(502: Bad Gateway)", false},
		{401, "", "(401: Unauthorized)", true},
	} {
		e := statusError("p", "token refresh", reply{Status: tc.status, Body: []byte(tc.body)})
		if !strings.Contains(e.Error(), tc.want) || e.Relogin != tc.relogin || strings.Contains(e.Error(), "\n") {
			t.Errorf("%d %s: %v (relogin %v)", tc.status, tc.body, e, e.Relogin)
		}
	}
}

// Every request has a limit of its own: a server that does not answer
// within it fails the step, in one line that names the fix.
func TestRequestTimeout(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(stop)
	a := NewAnthropic(srv.Client())
	a.TokenURL, a.Timeout = srv.URL, time.Millisecond
	_, err := a.Refresh(context.Background(), Credentials{Refresh: "r"})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "check the network") {
		t.Fatalf("err = %v", err)
	}
}

func TestErrorNeverRepeatsLongBodies(t *testing.T) {
	e := statusError("p", "s", reply{Status: 400, Body: []byte(`{"error":"x","error_description":"` + strings.Repeat("a", 5000) + `"}`)})
	if len(e.Error()) > 400 {
		t.Fatalf("error is %d bytes long", len(e.Error()))
	}
}
