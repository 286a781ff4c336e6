package rpc

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/modes/rpc/inbound"
)

// Options configure Run.
type Options struct {
	In  io.Reader // commands and host replies, one JSON object per line
	Out io.Writer // frames
	// EmitTitle lets extension_ui_request setTitle frames through
	// (PI_RPC_EMIT_TITLE=1); hosts rarely have a title to set.
	EmitTitle bool
	// StopGrace bounds how long shutdown waits for an aborted run to end.
	StopGrace time.Duration
	// Commands are extensions' slash commands: a prompt "/name args"
	// naming one runs it instead of going to the model.
	Commands []Command
	// Warnings are problems found while the session started that the
	// user should see (an extension tool whose parameters are not a
	// schema, an MCP tool whose schema had to be changed): each is sent
	// after the ready frame as an extension_ui_request notify of type
	// warning.
	Warnings []string
	// Logins are what get_login_providers and login use (nil: no
	// providers, and login fails).
	Logins Logins
}

// Command is an extension's slash command.
type Command struct {
	Name string
	Run  func(ctx context.Context, args string) error
}

// server is one RPC session.
type server struct {
	s    Session
	out  *writer
	opts Options

	host *hostBridge
	ui   *uiBridge

	mu         sync.Mutex
	starting   chan struct{}  // closed by the next agent_start while a prompt is starting
	compacting chan struct{}  // closed when the compact command in progress has answered
	prompts    sync.WaitGroup // prompt and compact commands running in the background

	// User shell commands run one after the other, in the order received,
	// in the session's shell (so a cd in one applies to the next).
	bashTail  chan struct{} // closed when the last bash command received is done; read by the reader only
	bashEpoch atomic.Int64  // bumped by abort_bash: commands received before it are skipped
}

// Run serves the RPC protocol for s until the input ends or ctx is done,
// then shuts down (pending host calls fail, the run is aborted, the
// session is closed) and returns the exit status: 0, or 1 when the
// session could not be saved.
func Run(ctx context.Context, s Session, opts Options) int {
	if opts.StopGrace <= 0 {
		opts.StopGrace = 5 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := &server{s: s, opts: opts, out: &writer{w: opts.Out, onFail: cancel}}
	srv.host = newHostBridge(srv.out)
	srv.ui = newUIBridge(srv.out, opts.EmitTitle)
	s.Tools().Env().SetHostURIs(srv.host, nil)
	if err := s.Tools().SetUI(srv.ui); err != nil {
		srv.out.send(map[string]string{"type": "extension_error", "extensionPath": "rpc", "event": "ui", "error": err.Error()})
	}
	unsub := s.Subscribe(srv.onEvent)

	srv.out.send(map[string]string{"type": "ready"})
	for _, w := range opts.Warnings {
		srv.ui.Notify(w, "warning")
	}
	lines := readLines(ctx, opts.In)
	for {
		var line []byte
		var ok bool
		select {
		case <-ctx.Done():
		case line, ok = <-lines:
		}
		if ctx.Err() != nil || !ok {
			break
		}
		srv.handleLine(ctx, line)
	}

	// The host is gone (or we were told to stop): nothing can answer host
	// calls any more, the run stops, what was done is saved.
	srv.host.rejectAll("RPC client disconnected before host tool execution completed")
	srv.ui.cancelAll()
	s.Abort()
	srv.bashEpoch.Add(1) // user commands still waiting for their turn are skipped
	s.Shell().Abort()
	wctx, wcancel := context.WithTimeout(context.Background(), opts.StopGrace)
	_ = s.Turn().WaitIdle(wctx)
	wcancel()
	waitGroup(&srv.prompts, opts.StopGrace)
	unsub()
	if err := s.Close(); err != nil {
		return 1
	}
	return 0
}

// onEvent forwards a session event to the host; agent_start also tells a
// prompt that is starting that its run has begun.
func (srv *server) onEvent(ev agent.Event) {
	if _, ok := ev.(agent.AgentStart); ok {
		srv.mu.Lock()
		if srv.starting != nil {
			close(srv.starting)
			srv.starting = nil
		}
		srv.mu.Unlock()
	}
	srv.out.send(ev)
}

// waitGroup waits for wg at most d.
func waitGroup(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// readLines delivers the input's lines (without the newline) until it
// ends or ctx is done. Lines may be of any length.
func readLines(ctx context.Context, in io.Reader) <-chan []byte {
	ch := make(chan []byte)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				select {
				case ch <- bytes.TrimRight(line, "\r\n"):
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// handleLine dispatches one inbound frame.
func (srv *server) handleLine(ctx context.Context, line []byte) {
	head, err := inbound.ParseHead(line)
	if err != nil {
		srv.out.send(fail(nil, "parse", "Failed to parse command: "+err.Error()))
		return
	}
	switch head.Type {
	case "extension_ui_response":
		srv.ui.answer(line)
		return
	case "host_tool_result", "host_tool_update", "host_uri_result":
		if err := srv.host.answer(head.Type, line); err != nil {
			srv.out.send(fail(nil, head.Type, err.Error()))
		}
		return
	}
	cmd, known := commands[head.Type]
	if !known {
		srv.out.send(fail(nil, head.Type, "Unknown command: "+head.Type))
		return
	}
	srv.waitCompaction(ctx, head.Type)
	data, err := cmd(ctx, srv, head.ID, line)
	if err != nil {
		srv.out.send(fail(head.ID, head.Type, err.Error()))
		return
	}
	if data == skipResponse {
		return
	}
	srv.out.send(ok(head.ID, head.Type, data))
}

// skipResponse is returned by a command that sent its response itself.
var skipResponse = &struct{}{}
