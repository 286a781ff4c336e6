package acp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/core/modes/acp/lineguard"
)

// Options configure Serve.
type Options struct {
	// Environ is the process environment the configuration of each
	// session is loaded with (KEY=VALUE); nil lets core/config read the
	// process's.
	Environ []string
	// Version is gopi's version, reported to the editor.
	Version string
	// Log receives diagnostics (stderr: standard output is the protocol);
	// nil discards them.
	Log io.Writer
	// HTTPClient is used for provider requests; nil for the default.
	HTTPClient *http.Client
	// Logins are the sign-in flows that refresh stored tokens (nil: none).
	Logins []oauth.Provider
	// SessionDir overrides where session files are stored and looked up
	// (--session-dir).
	SessionDir string
	// Model is the model new sessions start with (a --model query, with an
	// optional :LEVEL); "" selects one as the CLI does.
	Model string
	// Thinking is the thinking level new sessions start with; "" keeps
	// the settings' default.
	Thinking ai.ThinkingLevel
	// NoTitle turns off automatic session titles.
	NoTitle bool
	// TrustProject trusts the projects sessions open in (--trust-project);
	// otherwise an untrusted project's requests are left out (see
	// config.ProjectTrust) and the log says what was.
	TrustProject bool
}

// Serve speaks the protocol on in and out until the editor closes the
// connection (nil) or ctx ends (ctx's error). Sessions still open are
// aborted and closed before it returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	srv := newServer(opts)
	// The library starts reading at once, and its logger and our handlers'
	// connection must be set before anything is read: the gate holds the
	// first read until they are. The guard answers the lines the library
	// would choke on (see lineguard), writing through the same lock.
	lw := lineguard.NewLockedWriter(&answerCounter{w: out, open: srv.prompts})
	gate := &gatedReader{r: lineguard.New(in, lw, srv.logf), open: make(chan struct{})}
	conn := sdk.NewAgentSideConnection(srv, lw, gate)
	conn.SetLogger(slog.New(slog.NewTextHandler(srv.logw, nil)))
	srv.conn = conn
	close(gate.open)
	var err error
	select {
	case <-conn.Done():
	case <-ctx.Done():
		err = ctx.Err()
	}
	srv.closeAll()
	// The prompts closeAll cancelled are answered by the library once
	// their handlers return: wait for those answers before returning.
	srv.prompts.wait(answerWait)
	return err
}

// server is the agent side of one connection: the editor's capabilities
// and the open sessions by id.
type server struct {
	opts Options
	logw io.Writer
	conn *sdk.AgentSideConnection // set before the first message is read
	// ctx lives as long as the server; notifications and requests to the
	// editor outside a request's own context use it.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	caps     sdk.ClientCapabilities
	sessions map[string]*session
	closed   bool

	prompts *openPrompts // prompts not answered yet
}

func newServer(opts Options) *server {
	s := &server{opts: opts, logw: opts.Log, sessions: map[string]*session{}, prompts: newOpenPrompts()}
	if s.logw == nil {
		s.logw = io.Discard
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// peer returns the connection to the editor.
func (s *server) peer() *sdk.AgentSideConnection { return s.conn }

// gatedReader blocks reads until open is closed.
type gatedReader struct {
	r    io.Reader
	open chan struct{}
}

func (g *gatedReader) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}

// logf writes one diagnostic line.
func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.logw, "gopi acp: "+format+"\n", args...)
}

// send delivers one session/update notification. A failure (the editor
// went away) is logged: the run goes on and ends with the connection.
func (s *server) send(id string, u sdk.SessionUpdate) {
	if err := s.peer().SessionUpdate(s.ctx, sdk.SessionNotification{SessionId: sdk.SessionId(id), Update: u}); err != nil {
		s.logf("session %s: cannot send an update: %v", id, err)
	}
}

// clientCaps returns what the editor said it supports.
func (s *server) clientCaps() sdk.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// lookup returns an open session.
func (s *server) lookup(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.sessions[string(id)]; ok {
		return ss, nil
	}
	return nil, notFound("no open session %q: create one with session/new or open it with session/load", id)
}

// add registers an open session; false when the server is closing or
// the id is taken.
func (s *server) add(ss *session) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.sessions[ss.id] != nil {
		return false
	}
	s.sessions[ss.id] = ss
	return true
}

// remove forgets a session (it is closed by the caller).
func (s *server) remove(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[ss.id] == ss {
		delete(s.sessions, ss.id)
	}
}

// closeAll aborts and closes every session.
func (s *server) closeAll() {
	s.mu.Lock()
	s.closed = true
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	for _, ss := range all {
		ss.close()
	}
	s.cancel()
}

// Errors the editor sees: the message says what was wrong and what to do.

// notFound is ACP's "resource not found" (-32002).
func notFound(format string, args ...any) *sdk.RequestError {
	return &sdk.RequestError{Code: -32002, Message: fmt.Sprintf(format, args...)}
}

// invalidParams is JSON-RPC's -32602 with our message.
func invalidParams(format string, args ...any) *sdk.RequestError {
	return &sdk.RequestError{Code: -32602, Message: fmt.Sprintf(format, args...)}
}

// failed is JSON-RPC's internal error (-32603) with err's message.
func failed(err error) *sdk.RequestError {
	return &sdk.RequestError{Code: -32603, Message: err.Error()}
}
