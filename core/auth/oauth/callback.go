package oauth

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Callback says where a browser sign-in comes back to: the port and path of
// the local redirect URI (http://localhost:<port><path>).
type Callback struct {
	Port  int           // preferred port; 0 lets the system choose
	Path  string        // the redirect URI's path ("/callback")
	Fixed bool          // the provider accepts only this port: when it is busy, the user pastes the redirect URL instead
	Wait  time.Duration // how long to wait for the browser; 0: DefaultCallbackWait
}

// DefaultCallbackWait is how long a sign-in waits for the browser (or a
// paste) when the provider's Callback sets no Wait; omp waits as long.
const DefaultCallbackWait = 5 * time.Minute

// portTries is how many ports from the preferred one up a sign-in tries
// before it lets the system choose; only providers that accept any
// loopback port (not Fixed) move on.
const portTries = 10

// callbackHost is the address the callback server listens on; the redirect
// URI names it "localhost", as omp's does.
const callbackHost = "127.0.0.1"

// callbackResult is what one request to the callback server brought: a code
// and state, or why it was refused.
type callbackResult struct {
	code, state string
	err         error
}

// callbackServer receives the redirect of one sign-in. Its goroutine is
// owned by whoever called startCallback and ends with close.
type callbackServer struct {
	srv     *http.Server
	results chan callbackResult // the first verdict; later ones are dropped
	served  chan struct{}       // closed when Serve has returned
}

// startCallback listens for the redirect. It returns the redirect URI to
// send to the provider and a note for the user when the preferred port was
// busy. When the port is busy and the provider allows no other (cb.Fixed),
// no server runs (nil): the sign-in then relies on the paste.
func startCallback(provider string, cb Callback, state string) (*callbackServer, string, string) {
	ln, err := net.Listen("tcp", net.JoinHostPort(callbackHost, strconv.Itoa(cb.Port)))
	note := ""
	if err != nil {
		if cb.Fixed {
			note = fmt.Sprintf("Port %d is in use, so the browser cannot come back here: after signing in, copy the address the browser ends on and paste it below.", cb.Port)
			return nil, redirectURI(cb.Port, cb.Path), note
		}
		ln = nextPort(cb.Port)
		if ln == nil {
			note = "No local port is free for the browser to come back to: after signing in, copy the address the browser ends on and paste it below."
			return nil, redirectURI(cb.Port, cb.Path), note
		}
		note = fmt.Sprintf("Port %d is in use; the browser will come back on port %d.", cb.Port, ln.Addr().(*net.TCPAddr).Port)
	}
	s := &callbackServer{results: make(chan callbackResult, 1), served: make(chan struct{})}
	s.srv = &http.Server{
		Handler:           s.handler(provider, cb.Path, state),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln)
	}()
	return s, redirectURI(ln.Addr().(*net.TCPAddr).Port, cb.Path), note
}

// nextPort listens on the first free port after busy, or one the system
// picks; nil when none can be had.
func nextPort(busy int) net.Listener {
	for p := busy + 1; p < busy+portTries && p <= 65535 && busy > 0; p++ {
		if ln, err := net.Listen("tcp", net.JoinHostPort(callbackHost, strconv.Itoa(p))); err == nil {
			return ln
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(callbackHost, "0"))
	if err != nil {
		return nil
	}
	return ln
}

// redirectURI is the local redirect URI for port and path.
func redirectURI(port int, path string) string {
	return "http://localhost:" + strconv.Itoa(port) + path
}

// close stops the server and waits for its goroutine.
func (s *callbackServer) close() {
	if s == nil {
		return
	}
	_ = s.srv.Close()
	<-s.served
}

// handler judges each request to path: the first one that carries a code
// with the expected state, or an error from the provider, or the wrong
// state, decides the sign-in; the browser gets a page saying which.
func (s *callbackServer) handler(provider, path, state string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		res := judgeCallback(provider, r.URL.Query(), state)
		select {
		case s.results <- res:
		default:
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		msg := "Signed in. You can close this tab and return to the terminal."
		if res.err != nil {
			w.WriteHeader(http.StatusBadRequest)
			msg = "Sign-in failed: " + res.err.Error()
		}
		fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>gopi sign-in</title><p>%s</p>\n", html.EscapeString(msg))
	})
}

// judgeCallback decides what a redirect's query means for the sign-in that
// expects state.
func judgeCallback(provider string, q url.Values, state string) callbackResult {
	if code := q.Get("error"); code != "" {
		return callbackResult{err: &Error{Provider: provider, Step: "sign-in", Code: oneLine(code), Detail: oneLine(q.Get("error_description"))}}
	}
	return checkCode(provider, q.Get("code"), q.Get("state"), state, true)
}

// errStateMismatch is the Detail of a refused callback or paste.
const errStateMismatch = "refused an answer meant for a different sign-in: state mismatch, possible CSRF"

// checkCode accepts code when its state is the expected one; a paste may
// leave the state out (stateRequired false).
func checkCode(provider, code, got, want string, stateRequired bool) callbackResult {
	switch {
	case code == "":
		return callbackResult{err: &Error{Provider: provider, Step: "sign-in", Detail: "the answer carries no authorization code"}}
	case got != want && (stateRequired || got != ""):
		return callbackResult{err: &Error{Provider: provider, Step: "sign-in", Detail: errStateMismatch}}
	}
	return callbackResult{code: code, state: want}
}
