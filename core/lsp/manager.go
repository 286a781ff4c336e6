package lsp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// IdleCheckInterval is how often the manager looks for idle servers when
// an idle timeout is configured.
const IdleCheckInterval = 60 * time.Second

// ManagerOptions configure a Manager.
type ManagerOptions struct {
	Root   string            // the workspace root: the session's working directory
	Config *config.LSPConfig // enabled, configuration files, PATH; nil: enabled, no files, no PATH
	// ExtraDirs are searched for server programs before PATH (tests: the
	// cache scripts/setup.sh installs servers into).
	ExtraDirs []string
	// Dial starts a server; nil: Spawn with Config.Environ (gopi's own
	// environment when that is nil). A broker
	// that shares one server per root between gopi processes plugs in
	// here.
	Dial               DialFunc
	ApplyEdit          ApplyEditFunc    // workspace/applyEdit handler for every client; nil: refused
	RequestTimeout     time.Duration    // per request; 0: DefaultRequestTimeout
	InitTimeout        time.Duration    // per initialize; 0: DefaultRequestTimeout
	ProjectLoadTimeout time.Duration    // 0: ProjectLoadTimeout
	Now                func() time.Time // clock of idle accounting; nil: time.Now
	Builtins           []*Server        // replaces the built-in definitions (tests); nil: Builtins()
}

// Manager owns the language server clients of a session and its
// subagents: one client per server command and workspace root, started
// on first use and shared by every caller. A server that died is started
// again on the next call, which gets a note saying so; with an idle
// timeout configured, servers unused that long are stopped. Close stops
// them all. It implements core/tool.Diagnoser.
type Manager struct {
	opts ManagerOptions

	resolveOnce sync.Once
	servers     *Servers

	life   context.Context // ends with Close: cancels the starts in progress
	endAll context.CancelFunc
	starts sync.WaitGroup // starts in progress

	mu       sync.Mutex
	clients  map[string]*slot
	closed   bool
	idleStop chan struct{} // closed by Close to end the idle sweeper
	idleDone chan struct{} // closed when the sweeper has ended; nil: never started
}

// slot is one client being started or running.
type slot struct {
	ready  chan struct{} // closed when c or err is set
	c      *Client
	err    error
	server *Server
}

// NewManager returns a manager for opts; nothing starts until a server is
// needed.
func NewManager(opts ManagerOptions) *Manager {
	if opts.Config == nil {
		opts.Config = &config.LSPConfig{Enabled: true}
	}
	if opts.Dial == nil {
		opts.Dial = Spawn(opts.Config.Environ)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Manager{opts: opts, clients: map[string]*slot{}, idleStop: make(chan struct{})}
	m.life, m.endAll = context.WithCancel(context.Background())
	return m
}

// Enabled reports whether language servers are turned on.
func (m *Manager) Enabled() bool { return m.opts.Config.Enabled }

// Root returns the workspace root.
func (m *Manager) Root() string { return m.opts.Root }

// Servers returns the servers of the workspace, resolved once from the
// definitions and configuration files (see Resolve).
func (m *Manager) Servers() *Servers {
	m.resolveOnce.Do(func() {
		m.servers = Resolve(ResolveOptions{
			Root: m.opts.Root, Files: m.opts.Config.Files, Path: m.opts.Config.Path,
			ExtraDirs: m.opts.ExtraDirs, Builtins: m.opts.Builtins,
		})
	})
	return m.servers
}

// ErrClosed is returned by a manager after Close.
var ErrClosed = errors.New("the language servers of this session were shut down")

// Client returns the running client of s, starting it when there is none.
// note is set when an earlier client of s had died and this call started
// it again: the caller shows it with its result.
//
// A start runs apart from the caller, under the manager's own life and
// the initialize timeout: a caller that gives up (a write's short
// diagnostics budget) leaves the server starting for the next call
// instead of killing it half-way.
func (m *Manager) Client(ctx context.Context, s *Server) (c *Client, note string, err error) {
	key := s.Command + "\x00" + m.opts.Root
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, "", ErrClosed
		}
		sl, ok := m.clients[key]
		if !ok {
			sl = &slot{ready: make(chan struct{}), server: s}
			m.clients[key] = sl
			m.starts.Add(1)
			go m.start(key, sl)
		}
		m.mu.Unlock()
		select {
		case <-sl.ready:
		case <-ctx.Done():
			return nil, "", ctx.Err()
		}
		if sl.err != nil {
			return nil, note, sl.err
		}
		if sl.c.Alive() {
			sl.c.touch()
			return sl.c, note, nil
		}
		note = fmt.Sprintf("Note: language server %s had stopped (%v); it was started again for this call.", s.Name, sl.c.t.Err())
		m.drop(key, sl)
		_ = sl.c.Close()
	}
}

// start dials and initializes the client of slot sl. A failure stays in
// sl for the callers waiting on it, and the slot is dropped so that the
// next call tries again.
func (m *Manager) start(key string, sl *slot) {
	defer m.starts.Done()
	defer close(sl.ready)
	t, err := m.opts.Dial(m.life, sl.server, m.opts.Root)
	if err == nil {
		sl.c, err = Start(m.life, t, ClientOptions{
			Server: sl.server, Root: m.opts.Root, ApplyEdit: m.opts.ApplyEdit,
			RequestTimeout: m.opts.RequestTimeout, InitTimeout: m.opts.InitTimeout, ProjectLoadTimeout: m.opts.ProjectLoadTimeout, Now: m.opts.Now,
		})
	}
	if err != nil {
		if m.life.Err() != nil {
			err = ErrClosed
		}
		sl.c, sl.err = nil, fmt.Errorf("language server %s failed to start: %w", sl.server.Name, err)
		m.drop(key, sl)
		return
	}
	m.mu.Lock()
	if m.closed {
		// Close ran meanwhile: end the client before the slot is ready.
		m.mu.Unlock()
		_ = sl.c.Close()
		sl.c, sl.err = nil, ErrClosed
		return
	}
	m.startIdleLocked()
	m.mu.Unlock()
}

// drop removes sl from the table if it is still there.
func (m *Manager) drop(key string, sl *slot) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clients[key] == sl {
		delete(m.clients, key)
	}
}

// Running returns the clients that are running now.
func (m *Manager) Running() []*Client {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Client
	for _, sl := range m.clients {
		select {
		case <-sl.ready:
			if sl.c != nil && sl.c.Alive() {
				out = append(out, sl.c)
			}
		default:
		}
	}
	return out
}

// running returns the live client of s without starting one, or nil.
func (m *Manager) running(s *Server) *Client {
	m.mu.Lock()
	sl, ok := m.clients[s.Command+"\x00"+m.opts.Root]
	m.mu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-sl.ready:
		if sl.c != nil && sl.c.Alive() {
			return sl.c
		}
	default:
	}
	return nil
}

// Stop ends the client of s, if any; the next call starts a new one
// (without a note: this stop was asked for).
func (m *Manager) Stop(s *Server) {
	key := s.Command + "\x00" + m.opts.Root
	m.mu.Lock()
	sl, ok := m.clients[key]
	if ok {
		delete(m.clients, key)
	}
	m.mu.Unlock()
	if ok {
		<-sl.ready
		if sl.c != nil {
			_ = sl.c.Close()
		}
	}
}

// Reload asks a running server to reload its workspace: rust-analyzer's
// reloadWorkspace where the server has it, else a
// workspace/didChangeConfiguration with its settings; a server that takes
// neither is stopped, to start afresh on the next call. The answer is one
// line: "Reloaded <server>" or "Restarted <server>".
func (m *Manager) Reload(ctx context.Context, c *Client) string {
	err := c.Request(ctx, "rust-analyzer/reloadWorkspace", nil, nil)
	if err != nil && ctx.Err() == nil {
		err = c.Notify(ctx, "workspace/didChangeConfiguration", map[string]any{"settings": settingsSection(c.Server().Settings, "")})
	}
	if err == nil {
		return "Reloaded " + c.Name()
	}
	m.Stop(c.Server())
	return "Restarted " + c.Name()
}

// startIdleLocked starts the idle sweeper once, when an idle timeout is
// configured. m.mu is held.
func (m *Manager) startIdleLocked() {
	if m.idleDone != nil || m.Servers().IdleTimeout <= 0 {
		return
	}
	m.idleDone = make(chan struct{})
	go func() {
		defer close(m.idleDone)
		tick := time.NewTicker(IdleCheckInterval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				m.SweepIdle()
			case <-m.idleStop:
				return
			}
		}
	}()
}

// SweepIdle stops the servers unused for longer than the idle timeout
// (by the manager's clock). The sweeper calls it every
// IdleCheckInterval; tests call it with a clock of their own.
func (m *Manager) SweepIdle() {
	limit := m.Servers().IdleTimeout
	if limit <= 0 {
		return
	}
	now := m.opts.Now()
	var idle []*Client
	m.mu.Lock()
	for key, sl := range m.clients {
		select {
		case <-sl.ready:
		default:
			continue
		}
		if sl.c != nil && now.Sub(sl.c.LastActive()) > limit {
			idle = append(idle, sl.c)
			delete(m.clients, key)
		}
	}
	m.mu.Unlock()
	closeAll(idle)
}

// Close stops every server (shutdown, exit, then a kill of each process
// group) and the idle sweeper. Calls after it fail with ErrClosed.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	close(m.idleStop)
	done := m.idleDone
	var all []*slot
	for _, sl := range m.clients {
		all = append(all, sl)
	}
	m.clients = map[string]*slot{}
	m.mu.Unlock()
	m.endAll()
	m.starts.Wait()
	if done != nil {
		<-done
	}
	var cs []*Client
	for _, sl := range all {
		<-sl.ready
		if sl.c != nil {
			cs = append(cs, sl.c)
		}
	}
	closeAll(cs)
	return nil
}

// closeAll closes clients side by side.
func closeAll(cs []*Client) {
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.Close()
		}()
	}
	wg.Wait()
}
