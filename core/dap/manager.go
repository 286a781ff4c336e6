package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	godap "github.com/google/go-dap"
)

// Session timings.
const (
	// IdleTimeout is how long a session may go unused before it is ended.
	IdleTimeout = 10 * time.Minute
	// cleanupInterval is how often idle, terminated and dead sessions are
	// looked for.
	cleanupInterval = 30 * time.Second
	// stopCaptureTimeout bounds the wait for the first stop after launch or
	// attach (stopOnEntry), and for the top frame of a stop.
	stopCaptureTimeout = 5 * time.Second
)

// ErrNoSession is the error of an action that needs a session when there
// is none.
var ErrNoSession = errors.New("No active debug session. Launch or attach first.")

// Options configure a Manager.
type Options struct {
	// Env is the environment adapters (and the programs they start) run
	// in, KEY=VALUE; nil: this process's.
	Env []string
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Manager holds the debug sessions of one gopi session: at most one live
// at a time. It is safe for concurrent use; Close ends every session.
type Manager struct {
	opts Options

	mu       sync.Mutex
	sessions []*session // live or kept sessions, oldest first
	active   *session
	nextID   int
	closed   bool
	stop     chan struct{} // closed by Close: the cleanup loop ends
	loopDone chan struct{} // closed when the cleanup loop has ended (nil: never started)
}

// NewManager returns a manager with no session. The idle clean-up starts
// with the first session.
func NewManager(opts Options) *Manager {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Manager{opts: opts, stop: make(chan struct{})}
}

// session is one debug session. Its fields are guarded by Manager.mu,
// except client, adapter, id, cwd, program and launchedAt, which never
// change.
type session struct {
	id         string
	adapter    *Resolved
	cwd        string
	program    string
	client     *Client
	launchedAt time.Time

	lastUsedAt      time.Time
	status          Status
	stop            stopLocation
	threads         []godap.Thread
	lastFrames      []godap.StackFrame
	exitCode        *int
	initializedSeen bool
	needsConfigDone bool
	configDoneSent  bool
	breakpoints     map[string][]SourceBreakpoint // by absolute path
	functionBPs     []FunctionBreakpoint
	instructionBPs  []InstructionBreakpoint
	dataBPs         []DataBreakpoint
	output          outputBuffer
}

// LaunchOptions say what to launch.
type LaunchOptions struct {
	Adapter *Resolved // from Resolver.SelectLaunch
	Program string    // absolute path
	Args    []string  // program arguments
	Cwd     string    // working directory
}

// AttachOptions say what to attach to.
type AttachOptions struct {
	Adapter *Resolved // from Resolver.SelectAttach
	Cwd     string    // working directory
	PID     *int      // a local process
	Port    *int      // a remote debug port
	Host    string    // the remote host
}

// Launch starts the adapter, launches the program and waits (at most
// five seconds) for its first stop. timeout bounds each request.
func (m *Manager) Launch(ctx context.Context, o LaunchOptions, timeout time.Duration) (Summary, error) {
	args := cloneMap(o.Adapter.LaunchDefaults)
	args["program"] = o.Program
	args["cwd"] = o.Cwd
	if o.Args != nil {
		args["args"] = o.Args
	} else {
		args["args"] = []string{}
	}
	return m.start(ctx, o.Adapter, o.Cwd, o.Program, "launch", args, timeout)
}

// Attach starts the adapter, attaches to the process or port and waits
// (at most five seconds) for a first stop.
func (m *Manager) Attach(ctx context.Context, o AttachOptions, timeout time.Duration) (Summary, error) {
	args := cloneMap(o.Adapter.AttachDefaults)
	args["cwd"] = o.Cwd
	if o.PID != nil {
		args["pid"], args["processId"] = *o.PID, *o.PID
	}
	if o.Port != nil {
		args["port"] = *o.Port
	}
	if o.Host != "" {
		args["host"] = o.Host
	}
	return m.start(ctx, o.Adapter, o.Cwd, "", "attach", args, timeout)
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+4)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// start runs the handshake shared by launch and attach.
func (m *Manager) start(ctx context.Context, a *Resolved, cwd, program, request string, args map[string]any, timeout time.Duration) (Summary, error) {
	if err := m.ensureSlot(); err != nil {
		return Summary{}, err
	}
	s := &session{adapter: a, cwd: cwd, program: program, status: StatusLaunching, breakpoints: map[string][]SourceBreakpoint{}}
	client, err := Spawn(ctx, SpawnOptions{Adapter: a, Cwd: cwd, Env: m.opts.Env, Hooks: m.hooks(s)})
	if err != nil {
		return Summary{}, err
	}
	s.client = client
	if err := m.register(s); err != nil {
		_ = client.Close()
		return Summary{}, err
	}
	fail := func(err error) (Summary, error) {
		m.dispose(s)
		return Summary{}, err
	}
	caps, err := client.Initialize(ctx, initializeArgs(a.Name), timeout)
	if err != nil {
		return fail(err)
	}
	m.mu.Lock()
	s.needsConfigDone = caps.SupportsConfigurationDoneRequest
	m.mu.Unlock()
	firstStop := client.Watch("stopped", "terminated", "exited")
	defer firstStop.Stop()
	initialized := client.Watch("initialized")
	defer initialized.Stop()
	// Many adapters answer launch only after configurationDone: send it,
	// complete the handshake, then collect the answer.
	answer := make(chan error, 1)
	go func() { // owner: this call, which always receives from answer
		_, err := client.Request(ctx, request, args, timeout)
		answer <- err
	}()
	answered, err := m.handshake(ctx, s, initialized, answer, timeout)
	if !answered {
		if aerr := <-answer; err == nil {
			err = aerr
		}
	}
	if err != nil {
		return fail(err)
	}
	if _, err := firstStop.Wait(ctx, min(timeout, stopCaptureTimeout)); err == nil {
		m.fetchTopFrame(ctx, s, min(timeout, stopCaptureTimeout))
	} else if ctx.Err() == nil {
		m.mu.Lock()
		if s.initializedSeen && s.status == StatusLaunching {
			s.status = StatusConfiguring
			if s.configDoneSent {
				s.status = StatusRunning
			}
		}
		m.mu.Unlock()
	}
	return m.summary(s), nil
}

// initializeArgs are gopi's initialize arguments: lines and columns from
// 1, paths as paths, and the client features gopi handles.
func initializeArgs(adapter string) godap.InitializeRequestArguments {
	return godap.InitializeRequestArguments{
		ClientID: "gopi", ClientName: "gopi", AdapterID: adapter, Locale: "en-US",
		LinesStartAt1: true, ColumnsStartAt1: true, PathFormat: "path",
		SupportsRunInTerminalRequest: true, SupportsStartDebuggingRequest: true,
		SupportsMemoryReferences: true, SupportsVariableType: true, SupportsInvalidatedEvent: true,
	}
}

// handshake waits for initialized (unless it came) and sends
// configurationDone, when the adapter wants it. A failed launch/attach
// answer arriving meanwhile ends the wait with its error (answered
// reports that the answer was taken); an adapter that never sends
// initialized is left to the answer to explain.
func (m *Manager) handshake(ctx context.Context, s *session, initialized *Watch, answer <-chan error, timeout time.Duration) (answered bool, err error) {
	m.mu.Lock()
	need, seen := s.needsConfigDone && !s.configDoneSent, s.initializedSeen
	m.mu.Unlock()
	if !need {
		return false, nil
	}
	if !seen {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
	wait:
		for {
			select {
			case <-initialized.ch:
				break wait
			case err := <-answer:
				if err != nil {
					return true, err
				}
				answered = true
				answer = nil // answered fine: keep waiting for initialized
			case <-timer.C:
				return answered, nil
			case <-ctx.Done():
				return answered, ctx.Err()
			case <-s.client.done:
				return answered, s.client.Err()
			}
		}
	}
	return answered, m.configurationDone(ctx, s, timeout)
}

// configurationDone sends configurationDone once.
func (m *Manager) configurationDone(ctx context.Context, s *session, timeout time.Duration) error {
	if _, err := s.client.Request(ctx, "configurationDone", map[string]any{}, timeout); err != nil {
		return err
	}
	m.mu.Lock()
	s.configDoneSent = true
	if s.status == StatusConfiguring {
		s.status = StatusRunning
	}
	m.mu.Unlock()
	return nil
}

// ensureConfigured sends configurationDone before a request when the
// adapter wants it and it was not sent.
func (m *Manager) ensureConfigured(ctx context.Context, s *session, timeout time.Duration) error {
	m.mu.Lock()
	need := s.needsConfigDone && !s.configDoneSent
	m.mu.Unlock()
	if !need {
		return nil
	}
	return m.configurationDone(ctx, s, timeout)
}

// hooks are the session's handlers of what its adapter sends.
func (m *Manager) hooks(s *session) Hooks {
	return Hooks{
		Event: func(ev Event) { m.onEvent(s, ev) },
		Reverse: map[string]ReverseHandler{
			// Child sessions are acknowledged, not started.
			"startDebugging": func(json.RawMessage) (any, error) { return map[string]any{}, nil },
		},
		Closed: func(error) {
			m.mu.Lock()
			s.status = StatusTerminated
			m.mu.Unlock()
		},
		Terminal:    &s.output,
		TerminalEnv: m.opts.Env,
		TerminalCwd: s.cwd,
	}
}

// onEvent keeps the session's state in step with the adapter's events.
func (m *Manager) onEvent(s *session, ev Event) {
	switch ev.Name {
	case "output":
		var b godap.OutputEventBody
		if json.Unmarshal(ev.Body, &b) == nil && b.Output != "" && b.Category != "telemetry" {
			_, _ = s.output.Write([]byte(b.Output))
		}
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch ev.Name {
	case "initialized":
		s.initializedSeen = true
		if !s.configDoneSent {
			s.status = StatusConfiguring
		}
	case "stopped":
		var b struct {
			Reason      string `json:"reason"`
			Description string `json:"description"`
			Text        string `json:"text"`
			ThreadID    *int   `json:"threadId"`
		}
		_ = json.Unmarshal(ev.Body, &b)
		s.status = StatusStopped
		desc := b.Description
		if desc == "" {
			desc = b.Text
		}
		s.stop = stopLocation{threadID: b.ThreadID, reason: b.Reason, description: desc}
		s.lastFrames = nil
	case "continued":
		var b struct {
			ThreadID *int `json:"threadId"`
		}
		_ = json.Unmarshal(ev.Body, &b)
		s.status = StatusRunning
		s.stop = stopLocation{threadID: b.ThreadID}
		s.lastFrames = nil
	case "exited":
		var b struct {
			ExitCode *int `json:"exitCode"`
		}
		if json.Unmarshal(ev.Body, &b) == nil {
			s.exitCode = b.ExitCode
		}
		// The program is gone; terminated follows (omp waits for it and
		// may call a finished program running meanwhile).
		s.status = StatusTerminated
	case "terminated":
		s.status = StatusTerminated
	}
}

// fetchTopFrame asks for the stopped thread's top frame and keeps it as
// the stop location; failures leave the location as it was.
func (m *Manager) fetchTopFrame(ctx context.Context, s *session, timeout time.Duration) {
	m.mu.Lock()
	stopped, thread := s.status == StatusStopped, s.stop.threadID
	m.mu.Unlock()
	if !stopped || thread == nil {
		return
	}
	var resp godap.StackTraceResponseBody
	if err := s.client.RequestInto(ctx, "stackTrace", map[string]any{"threadId": *thread, "levels": 1}, timeout, &resp); err != nil {
		return
	}
	m.mu.Lock()
	s.lastFrames = resp.StackFrames
	if len(resp.StackFrames) > 0 {
		applyTopFrame(s, resp.StackFrames[0])
	}
	m.mu.Unlock()
}

// applyTopFrame records frame as where s stopped; the lock is held.
func applyTopFrame(s *session, f godap.StackFrame) {
	id, line, col := f.Id, f.Line, f.Column
	s.stop.frameID, s.stop.frameName, s.stop.ipRef = &id, f.Name, f.InstructionPointerReference
	s.stop.source, s.stop.line, s.stop.column = f.Source, &line, &col
}

// ensureSlot refuses a second live session; a dead or terminated one is
// cleared away.
func (m *Manager) ensureSlot() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errors.New("the debug sessions are closed: the gopi session is ending")
	}
	a := m.active
	m.mu.Unlock()
	if a == nil {
		return nil
	}
	m.mu.Lock()
	dead := a.status == StatusTerminated || !a.client.Alive()
	m.mu.Unlock()
	if dead {
		m.dispose(a)
		return nil
	}
	return fmt.Errorf("Debug session %s is still active. Terminate it before launching another.", a.id)
}

// register makes s the active session and starts the clean-up loop.
func (m *Manager) register(s *session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errors.New("the debug sessions are closed: the gopi session is ending")
	}
	if a := m.active; a != nil { // another launch won the slot meanwhile
		return fmt.Errorf("Debug session %s is still active. Terminate it before launching another.", a.id)
	}
	m.nextID++
	s.id = fmt.Sprintf("debug-%d", m.nextID)
	now := m.opts.Now()
	s.launchedAt, s.lastUsedAt = now, now
	m.sessions = append(m.sessions, s)
	m.active = s
	if m.loopDone == nil {
		m.loopDone = make(chan struct{})
		go m.cleanupLoop() // owner: the Manager; Close stops it
	}
	return nil
}

// dispose forgets s and ends its adapter (and everything it started).
func (m *Manager) dispose(s *session) {
	m.mu.Lock()
	if m.active == s {
		m.active = nil
	}
	for i, x := range m.sessions {
		if x == s {
			m.sessions = append(m.sessions[:i], m.sessions[i+1:]...)
			break
		}
	}
	m.mu.Unlock()
	_ = s.client.Close()
}

// cleanupLoop ends idle, terminated and dead sessions every
// cleanupInterval until Close.
func (m *Manager) cleanupLoop() {
	defer close(m.loopDone)
	t := time.NewTicker(cleanupInterval)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.Cleanup()
		}
	}
}

// Cleanup ends the sessions that are terminated, whose adapter is gone,
// or that went unused for IdleTimeout.
func (m *Manager) Cleanup() {
	now := m.opts.Now()
	var stale []*session
	m.mu.Lock()
	for _, s := range m.sessions {
		if s.status == StatusTerminated || !s.client.Alive() || now.Sub(s.lastUsedAt) > IdleTimeout {
			stale = append(stale, s)
		}
	}
	m.mu.Unlock()
	for _, s := range stale {
		m.dispose(s)
	}
}

// Close ends every session and the clean-up loop. The Manager refuses new
// sessions afterwards.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	close(m.stop)
	all := append([]*session(nil), m.sessions...)
	done := m.loopDone
	m.mu.Unlock()
	for _, s := range all {
		m.dispose(s)
	}
	if done != nil {
		<-done
	}
	return nil
}

// summary returns s's summary.
func (m *Manager) summary(s *session) Summary {
	m.mu.Lock()
	defer m.mu.Unlock()
	return s.summaryLocked()
}

// Active returns the active session's summary.
func (m *Manager) Active() (Summary, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.active == nil {
		return Summary{}, false
	}
	return m.active.summaryLocked(), true
}

// Sessions returns the summaries of the sessions kept.
func (m *Manager) Sessions() []Summary {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Summary, len(m.sessions))
	for i, s := range m.sessions {
		out[i] = s.summaryLocked()
	}
	return out
}

// Capabilities returns the active adapter's capabilities.
func (m *Manager) Capabilities() (godap.Capabilities, bool) {
	m.mu.Lock()
	a := m.active
	m.mu.Unlock()
	if a == nil {
		return godap.Capabilities{}, false
	}
	return a.client.Capabilities(), true
}

// Pids returns the live processes of the active session's tree (adapter,
// debuggee, what they started), for tests and diagnostics.
func (m *Manager) Pids() []int {
	m.mu.Lock()
	a := m.active
	m.mu.Unlock()
	if a == nil {
		return nil
	}
	return a.client.Pids()
}

// touch returns the active session, marks it used, and notices a dead
// adapter.
func (m *Manager) touch() (*session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.active
	if s == nil {
		return nil, ErrNoSession
	}
	s.lastUsedAt = m.opts.Now()
	if s.status != StatusTerminated && !s.client.Alive() {
		s.status = StatusTerminated
	}
	return s, nil
}

// request sends a request of an action: configurationDone first when it
// is still owed, then command; the session counts as used.
func (m *Manager) request(ctx context.Context, s *session, command string, args any, timeout time.Duration, out any) error {
	if err := m.ensureConfigured(ctx, s, timeout); err != nil {
		return err
	}
	err := s.client.RequestInto(ctx, command, args, timeout, out)
	m.mu.Lock()
	s.lastUsedAt = m.opts.Now()
	m.mu.Unlock()
	return err
}

// absPath is filepath.Abs, keeping p when it fails.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
