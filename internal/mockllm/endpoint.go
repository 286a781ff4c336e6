package mockllm

import (
	"context"
	"net"
	"net/http"
	"time"
)

// Endpoint is a Server listening on a network address of the caller's
// choice, served by Serve until it returns: what `gopi mockllm` runs.
type Endpoint struct {
	srv *Server
	ln  net.Listener
}

// Listen listens on addr ("127.0.0.1:0" picks a free port) for a server
// playing turns. Connections wait in the listener's queue until Serve.
func Listen(addr string, turns ...Turn) (*Endpoint, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Endpoint{srv: NewHandler().Script(turns...), ln: ln}, nil
}

// URL is the endpoint's root URL (http://HOST:PORT), without a trailing
// slash.
func (e *Endpoint) URL() string { return "http://" + e.ln.Addr().String() }

// Server is the script's server: its requests and the turns left.
func (e *Endpoint) Server() *Server { return e.srv }

// shutdownGrace is how long Serve lets open requests finish once it stops.
const shutdownGrace = 2 * time.Second

// Serve answers requests until ctx ends, until every turn has been played
// and answered when untilPlayed is set, or until serving fails, which is
// the error returned. Either way it closes the listener and shuts the
// server down (open requests get shutdownGrace to finish) before it
// returns; it is called once.
func (e *Endpoint) Serve(ctx context.Context, untilPlayed bool) error {
	hs := &http.Server{Handler: e.srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(e.ln) }()

	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	if untilPlayed {
		go func() {
			if e.srv.WaitPlayed(waitCtx) == nil {
				close(done)
			}
		}()
	}
	var err error
	select {
	case <-ctx.Done():
	case <-done:
	case err = <-served:
	}
	shutdownCtx, stop := context.WithTimeout(context.Background(), shutdownGrace)
	defer stop()
	_ = hs.Shutdown(shutdownCtx)
	return err
}
