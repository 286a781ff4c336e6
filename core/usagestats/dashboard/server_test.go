package dashboard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/usagestats"
)

func TestServer(t *testing.T) {
	first := &usagestats.Report{Files: 3, Sessions: 2, ByModel: map[usagestats.ModelKey]*usagestats.Totals{}, ByFolder: map[string]*usagestats.Totals{}, Tools: map[string]int64{"read": 4}}
	fail := errors.New("permission denied")
	srv := New(first, func(context.Context) (*usagestats.Report, error) { return nil, fail })
	do := func(method, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		return rec
	}
	if rec := do("GET", "/api/stats/tools"); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `[{"tool":"read","calls":4}]` {
		t.Fatalf("tools: %d %s", rec.Code, rec.Body)
	}
	if rec := do("GET", "/some/page"); rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("the page for any other path: %d", rec.Code)
	}
	if rec := do("DELETE", "/api/stats"); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("DELETE: %d", rec.Code)
	}
	if rec := do("POST", "/api/sync"); rec.Code != 500 || !strings.Contains(rec.Body.String(), "permission denied") {
		t.Fatalf("a failed sync: %d %s", rec.Code, rec.Body)
	}
	if rec := do("GET", "/api/stats"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"files":3`) {
		t.Fatalf("a failed sync replaced the numbers: %s", rec.Body)
	}
}
