package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

// State is where a server is in its life.
type State string

// Server states.
const (
	StateIdle       State = "idle"       // not started yet
	StateConnecting State = "connecting" // starting and listing its tools
	StateConnected  State = "connected"  // ready
	StateFailed     State = "failed"     // could not start, or stopped unexpectedly (Error says why)
	StateClosed     State = "closed"     // shut down by Close
)

// Options configure a Manager.
type Options struct {
	// Servers are the servers to manage (config.Config.MCP().Servers).
	Servers []*config.MCPServer
	// Resolve turns an env or header value into the value to use
	// (config.Config.ResolveMCPValue); ok false leaves the entry out. Nil
	// uses values as written.
	Resolve func(ctx context.Context, value string) (string, bool)
	// Environ is the environment stdio servers start from (KEY=VALUE),
	// before their own env entries; nil is an empty environment.
	Environ []string
	// Cwd is where stdio servers run unless their entry says otherwise.
	Cwd string
	// ConnectTimeout bounds starting a server and listing its tools when
	// the server's entry sets none; 0 means config.DefaultMCPConnectTimeout.
	ConnectTimeout time.Duration
	// CallTimeout bounds one tool call or resource read; 0 means
	// config.DefaultMCPCallTimeout.
	CallTimeout time.Duration
	// HTTPClient is used for http and sse servers; nil means one without
	// an overall timeout (calls are bounded by CallTimeout).
	HTTPClient *http.Client
	// Version is the client version sent to servers ("" = "dev").
	Version string
	// ConfigErrors are the configuration problems found while reading the
	// servers (config.MCPConfig.Errors), reported by Status.
	ConfigErrors []error
	// Disabled are the names turned off by disabledServers, reported by
	// Status.
	Disabled []string
}

// Status is everything /mcp shows: the servers and the configuration
// problems.
type Status struct {
	Servers  []ServerInfo `json:"servers"`            // every configured server, in priority order
	Errors   []string     `json:"errors,omitempty"`   // invalid entries and unreadable files
	Disabled []string     `json:"disabled,omitempty"` // names turned off by disabledServers
}

// Problems lists what went wrong, one line each: the configuration
// problems, then every server that failed.
func (st Status) Problems() []string {
	out := append([]string(nil), st.Errors...)
	for _, s := range st.Servers {
		if s.State == StateFailed {
			out = append(out, s.Error)
		}
	}
	return out
}

// Warnings lists, one line each, how the servers' tool schemas were
// changed to suit providers and which tools were left out.
func (st Status) Warnings() []string {
	var out []string
	for _, s := range st.Servers {
		out = append(out, s.Warnings...)
	}
	return out
}

// Status returns the servers with the configuration problems.
func (m *Manager) Status() Status {
	st := Status{Servers: m.Servers(), Disabled: m.opts.Disabled}
	for _, e := range m.opts.ConfigErrors {
		st.Errors = append(st.Errors, e.Error())
	}
	return st
}

// ServerInfo describes one server for front ends (/mcp) and RPC.
type ServerInfo struct {
	Name      string   `json:"name"`                // the configured name
	Type      string   `json:"type"`                // stdio, http or sse
	Source    string   `json:"source"`              // the file that defined it
	State     State    `json:"state"`               // see State
	Error     string   `json:"error,omitempty"`     // why it failed
	Server    string   `json:"server,omitempty"`    // name and version the server reported
	Tools     []string `json:"tools"`               // the tool names offered to the model
	Resources bool     `json:"resources,omitempty"` // the server offers resources (mcp://<name>/…)
	// Warnings say how tools' input schemas were changed to suit
	// providers, or why a tool was left out.
	Warnings []string `json:"warnings,omitempty"`
}

// Manager owns the connections to a set of MCP servers. Its methods are
// safe for concurrent use.
type Manager struct {
	opts    Options
	client  *sdk.Client
	servers []*server
	byName  map[string]*server

	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup // one watcher per live connection
}

// New returns a Manager for opts.Servers; nothing starts before Start.
func New(opts Options) *Manager {
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = config.DefaultMCPConnectTimeout
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = config.DefaultMCPCallTimeout
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	m := &Manager{opts: opts, byName: map[string]*server{}}
	m.client = sdk.NewClient(&sdk.Implementation{Name: "gopi", Version: opts.Version}, &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}})
	for _, c := range opts.Servers {
		s := &server{m: m, cfg: c, state: StateIdle}
		m.servers = append(m.servers, s)
		m.byName[c.Name] = s
	}
	return m
}

// Start connects every server at once and waits until each is connected
// or has failed (each bounded by its connect timeout, and all by ctx).
// Failures are recorded per server (Servers) and never returned: the
// session works with the servers that started.
func (m *Manager) Start(ctx context.Context) {
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = s.connect(ctx)
		}()
	}
	wg.Wait()
}

// Tools returns the tools of the connected servers, in server order and
// then in the order each server listed them. Names that collide after
// sanitising keep the first tool.
func (m *Manager) Tools() []tool.Tool {
	var out []tool.Tool
	seen := map[string]bool{}
	for _, s := range m.servers {
		s.mu.Lock()
		tools := s.tools
		s.mu.Unlock()
		for _, t := range tools {
			if seen[t.def.Name] {
				continue
			}
			seen[t.def.Name] = true
			out = append(out, t)
		}
	}
	return out
}

// Servers describes every server, in configuration order.
func (m *Manager) Servers() []ServerInfo {
	out := make([]ServerInfo, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s.info())
	}
	return out
}

// Close shuts every connection down (stdio servers and the processes they
// started end) and waits for them. It is safe to call more than once.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.shutdown()
		}()
	}
	wg.Wait()
	m.wg.Wait()
	return nil
}

func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// server is one configured server and its connection.
type server struct {
	m   *Manager
	cfg *config.MCPServer

	connMu sync.Mutex // serialises connecting

	mu        sync.Mutex
	state     State
	err       string
	session   *sdk.ClientSession
	proc      *process // stdio: the child, for the group kill
	impl      string
	tools     []*remoteTool
	warnings  []string // what cleaning the tools' schemas changed (see newRemoteTool)
	resources bool
	started   bool // connected once: later connects are restarts that keep the tool list
}

func (s *server) info() ServerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.tools))
	for _, t := range s.tools {
		names = append(names, t.def.Name)
	}
	return ServerInfo{Name: s.cfg.Name, Type: s.cfg.Type, Source: s.cfg.Source, State: s.state, Error: s.err, Server: s.impl, Tools: names, Resources: s.resources,
		Warnings: append([]string(nil), s.warnings...)}
}

// live returns the connected session, connecting (or restarting a server
// that went down) first when needed.
func (s *server) live(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	cs := s.session
	s.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	return s.connect(ctx)
}

// connect starts the server, performs the handshake and lists its tools.
func (s *server) connect(ctx context.Context) (*sdk.ClientSession, error) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	if s.session != nil {
		cs := s.session
		s.mu.Unlock()
		return cs, nil
	}
	if s.m.isClosed() {
		s.mu.Unlock()
		return nil, fmt.Errorf("MCP server %q: the session is closing", s.cfg.Name)
	}
	s.state, s.err = StateConnecting, ""
	s.mu.Unlock()

	timeout := s.m.opts.ConnectTimeout
	if s.cfg.Timeout > 0 {
		timeout = s.cfg.Timeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cs, proc, err := s.dial(cctx)
	if err == nil {
		err = s.discover(cctx, cs)
		if err != nil {
			_ = cs.Close()
			proc.kill()
		}
	}
	if err != nil {
		if cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			err = fmt.Errorf("did not finish starting within %s (raise the server's \"timeout\" or mcp.connectTimeoutMs if it is slow to start)", timeout)
		}
		err = s.failure("cannot start", err, proc)
		s.mu.Lock()
		s.state, s.err = StateFailed, err.Error()
		s.mu.Unlock()
		return nil, err
	}
	s.mu.Lock()
	if s.m.isClosed() {
		s.mu.Unlock()
		_ = cs.Close()
		proc.kill()
		return nil, fmt.Errorf("MCP server %q: the session is closing", s.cfg.Name)
	}
	s.session, s.proc, s.state, s.err, s.started = cs, proc, StateConnected, "", true
	s.m.wg.Add(1)
	s.mu.Unlock()
	go s.watch(cs, proc)
	return cs, nil
}

// watch waits for the connection to end and, unless the manager closed
// it, marks the server failed with what its stderr said; the next call
// restarts it.
func (s *server) watch(cs *sdk.ClientSession, proc *process) {
	defer s.m.wg.Done()
	_ = cs.Wait()
	// The connection is gone: end what is left of the server and reap it
	// (Close waits for the child, so its stderr is complete below).
	proc.kill()
	_ = cs.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != cs {
		return
	}
	s.session, s.proc = nil, nil
	if s.state == StateClosed {
		return
	}
	s.state = StateFailed
	s.err = s.failure("stopped", errors.New("the connection ended"), proc).Error()
}

// failure builds an error naming the server, with its stderr tail.
func (s *server) failure(what string, err error, proc *process) error {
	msg := fmt.Sprintf("MCP server %q %s: %v", s.cfg.Name, what, err)
	if tail := proc.stderrTail(); tail != "" {
		msg += "; its stderr ended with: " + tail
	}
	return errors.New(msg)
}

// shutdown closes the connection for good.
func (s *server) shutdown() {
	s.connMu.Lock() // wait for a connect in progress
	defer s.connMu.Unlock()
	s.mu.Lock()
	cs, proc := s.session, s.proc
	s.state = StateClosed
	s.mu.Unlock()
	if cs != nil {
		_ = cs.Close()
	}
	proc.kill()
}

// dial opens the transport and performs the MCP handshake.
func (s *server) dial(ctx context.Context) (*sdk.ClientSession, *process, error) {
	var t sdk.Transport
	proc := &process{}
	switch s.cfg.Type {
	case config.MCPHTTP, config.MCPSSE:
		client := s.m.opts.HTTPClient
		if client == nil {
			client = &http.Client{}
		}
		client = withHeaders(client, s.resolveMap(ctx, s.cfg.Headers))
		if s.cfg.Type == config.MCPSSE {
			t = &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: client}
		} else {
			t = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, MaxRetries: -1}
		}
	default:
		proc = s.command(ctx)
		t = &sdk.CommandTransport{Command: proc.cmd, TerminateDuration: 2 * time.Second}
	}
	// The transport's streams (an SSE GET) live as long as the connection,
	// not as long as the handshake: they get a context of their own, ended
	// by proc.kill.
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	proc.cancel = cancel
	t = &lifeTransport{Transport: t, life: life, cancel: cancel}
	cs, err := s.m.client.Connect(ctx, t, nil)
	if err != nil {
		proc.kill()
		return nil, proc, err
	}
	return cs, proc, nil
}

// command builds a stdio server's process: its environment is the
// session's plus the entry's resolved env.
func (s *server) command(ctx context.Context) *process {
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Dir = s.m.opts.Cwd
	if s.cfg.Cwd != "" {
		cmd.Dir = s.cfg.Cwd
	}
	env := append([]string(nil), s.m.opts.Environ...)
	for k, v := range s.resolveMap(ctx, s.cfg.Env) {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	return newProcess(cmd)
}

// resolveMap resolves env or header values, leaving out the ones whose
// command failed.
func (s *server) resolveMap(ctx context.Context, in map[string]string) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		if s.m.opts.Resolve == nil || s.cfg.Literal {
			out[k] = v
			continue
		}
		if r, ok := s.m.opts.Resolve(ctx, v); ok {
			out[k] = r
		}
	}
	return out
}

// discover lists the server's tools (all pages) and notes whether it has
// resources. A restart keeps the tool list of the first start: the model
// already saw it.
func (s *server) discover(ctx context.Context, cs *sdk.ClientSession) error {
	init := cs.InitializeResult()
	s.mu.Lock()
	started := s.started
	if init != nil && init.ServerInfo != nil {
		s.impl = strings.TrimSpace(init.ServerInfo.Name + " " + init.ServerInfo.Version)
	}
	if init != nil && init.Capabilities != nil {
		s.resources = init.Capabilities.Resources != nil
	}
	s.mu.Unlock()
	if started {
		return nil
	}
	var tools []*remoteTool
	var warnings []string
	if init == nil || init.Capabilities == nil || init.Capabilities.Tools != nil {
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return fmt.Errorf("listing its tools: %w", err)
			}
			rt, w := newRemoteTool(s, t)
			warnings = append(warnings, w...)
			if rt != nil {
				tools = append(tools, rt)
			}
		}
	}
	s.mu.Lock()
	s.tools, s.warnings = tools, warnings
	s.mu.Unlock()
	return nil
}

// call runs fn against the live session (starting the server again if
// it went down), bounded by the call timeout, and turns transport
// failures into errors naming the server.
func (s *server) call(ctx context.Context, what string, fn func(context.Context, *sdk.ClientSession) error) error {
	cs, err := s.live(ctx) // a (re)start is bounded by the connect timeout
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, s.m.opts.CallTimeout)
	defer cancel()
	err = fn(cctx, cs)
	var wire *jsonrpc.Error
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("MCP server %q did not answer %s within %s (it may be stuck; mcp.callTimeoutMs sets the limit)", s.cfg.Name, what, s.m.opts.CallTimeout)
	case errors.As(err, &wire):
		// The server answered with an error: the connection is fine.
		return fmt.Errorf("MCP server %q: %s failed: %s", s.cfg.Name, what, wire.Message)
	}
	// The connection broke (the server exited, or wrote something that is
	// not JSON-RPC): drop it, so the next call starts the server again.
	return s.drop(cs, "broke down during "+what, err)
}

// drop ends a connection that can no longer be trusted and marks the
// server failed; the next call restarts it.
func (s *server) drop(cs *sdk.ClientSession, what string, cause error) error {
	s.mu.Lock()
	proc := s.proc
	if s.session == cs {
		s.session, s.proc = nil, nil
	}
	s.mu.Unlock()
	proc.kill()
	_ = cs.Close()
	if errors.Is(cause, io.EOF) || errors.Is(cause, sdk.ErrConnectionClosed) {
		what = "stopped during " + strings.TrimPrefix(what, "broke down during ")
		cause = errors.New("the connection ended")
	}
	err := s.failure(what, cause, proc)
	s.mu.Lock()
	if s.state != StateClosed {
		s.state, s.err = StateFailed, err.Error()
	}
	s.mu.Unlock()
	return err
}

// lifeTransport connects its transport with a context that outlives the
// handshake; while connecting, the end of the handshake's context ends it
// too (a server that never answers the SSE GET).
type lifeTransport struct {
	sdk.Transport
	life   context.Context
	cancel context.CancelFunc
}

func (t *lifeTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stop := context.AfterFunc(ctx, t.cancel)
	defer stop()
	return t.Transport.Connect(t.life)
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// withHeaders returns a copy of c that sends headers with every request.
func withHeaders(c *http.Client, headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return c
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp := *c
	cp.Transport = &headerTransport{base: base, headers: headers}
	return &cp
}
