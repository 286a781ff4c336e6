// Package dashboard serves the numbers of `gopi stats` to a browser, as
// omp's stats dashboard does: a page that draws them, and the JSON it
// reads (/api/stats and its parts). The sessions are read when the
// server starts and again on /api/sync; every other request answers from
// the last reading. The server listens where its caller says (gopi stats
// binds 127.0.0.1) and stops when its context ends.
package dashboard

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/usagestats"
)

// DefaultPort is omp's dashboard port.
const DefaultPort = 3847

// page is the dashboard: one HTML file with its script, drawing
// /api/stats.
//
//go:embed page.html
var page []byte

// Limits of the HTTP server.
const (
	readHeaderTimeout = 10 * time.Second
	writeTimeout      = 2 * time.Minute // a sync reads every changed session file
	shutdownTimeout   = 5 * time.Second
)

// Server answers the dashboard's requests from the last reading of the
// sessions.
type Server struct {
	scan func(ctx context.Context) (*usagestats.Report, error) // reads the sessions

	mu   sync.Mutex
	last *usagestats.Report
}

// New returns a server over first (the reading gopi stats made), which
// reads the sessions again with scan on /api/sync.
func New(first *usagestats.Report, scan func(ctx context.Context) (*usagestats.Report, error)) *Server {
	return &Server{scan: scan, last: first}
}

// report returns the last reading.
func (s *Server) report() *usagestats.Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// parts are the paths that answer one member of /api/stats.
var parts = map[string]string{
	"/api/stats/models":  "byModel",
	"/api/stats/folders": "byFolder",
	"/api/stats/tools":   "byTool",
	"/api/stats/overall": "overall",
}

// ServeHTTP answers GET /api/stats (what gopi stats --json prints), its
// parts, /api/sync (read the sessions again; GET or POST) and the page
// for every other path.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch p := r.URL.Path; {
	case p == "/api/stats":
		writeJSON(w, s.report())
	case parts[p] != "":
		b, err := json.Marshal(s.report())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		var all map[string]json.RawMessage
		if err := json.Unmarshal(b, &all); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, all[parts[p]])
	case p == "/api/sync":
		rep, err := s.scan(r.Context())
		if rep == nil {
			writeError(w, err)
			return
		}
		s.mu.Lock()
		s.last = rep
		s.mu.Unlock()
		writeJSON(w, map[string]any{"files": rep.Files, "cached": rep.Cached, "totalRequests": rep.Overall.Requests})
	case len(p) >= 5 && p[:5] == "/api/":
		http.NotFound(w, r)
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(page)
	}
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with {"error": …} and status 500.
func writeError(w http.ResponseWriter, err error) {
	if err == nil {
		err = errors.New("the sessions could not be read")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// Serve answers on ln until ctx ends, then stops the server (letting
// requests in flight finish, for a few seconds at most).
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout, WriteTimeout: writeTimeout,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}
