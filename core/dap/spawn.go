package dap

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/internal/tailbuf"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// SocketReadyTimeout is how long a socket-mode adapter has to start
// listening.
const SocketReadyTimeout = 10 * time.Second

// exitWait is how long the client waits, once the adapter's connection
// ends, for the process to exit, so the error can give its exit code.
const exitWait = 2 * time.Second

// SpawnOptions say how to start an adapter.
type SpawnOptions struct {
	Adapter *Resolved // the adapter to run
	Cwd     string    // its working directory (the debuggee's, unless the launch says otherwise)
	Env     []string  // its environment, KEY=VALUE; nil: this process's
	Hooks   Hooks     // what the session does with events and reverse requests
}

// process is a started adapter and everything it started.
type process struct {
	cmd     *exec.Cmd
	tree    *childproc.Tree
	stderr  *tailbuf.Buffer // the end of its error output (and, in socket mode, of its standard output)
	exited  chan struct{}   // closed when it has exited and been waited for
	code    int             // exit code, once exited (-1: killed by a signal)
	cleanup func()          // removes what spawning made (the socket's directory)
	endOnce sync.Once
}

// exitError describes the exit of the adapter named name.
func (p *process) exitError() error {
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		return fmt.Errorf("DAP adapter exited (code %d): %s", p.code, s)
	}
	return fmt.Errorf("DAP adapter exited unexpectedly (code %d)", p.code)
}

// end ends the adapter's whole tree (the debuggee included) and waits
// for the adapter to be reaped.
func (p *process) end() {
	p.endOnce.Do(func() {
		p.tree.End()
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
		}
		<-p.exited
		if p.cleanup != nil {
			p.cleanup()
		}
	})
}

// Spawn starts the adapter of opts and connects to it: over its standard
// input and output, or, for a socket-mode adapter, over the Unix socket
// it is told to listen on. The client owns the process from then on:
// Close ends it with everything it started.
func Spawn(ctx context.Context, opts SpawnOptions) (*Client, error) {
	a := opts.Adapter
	args := append([]string(nil), a.Args...)
	var sockDir, sock string
	if a.Connect == ConnectSocket {
		dir, err := childproc.MkdirTemp("dap")
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", a.Name, err)
		}
		sockDir, sock = dir, filepath.Join(dir, "dap.sock")
		args = append(args, "--listen=unix:"+sock)
	}
	cmd := exec.Command(a.Path, args...)
	cmd.Dir = opts.Cwd
	cmd.Env = opts.Env
	cmd.WaitDelay = exitWait // a descendant holding the output pipes open does not keep Wait
	p := &process{cmd: cmd, tree: childproc.NewTree(), stderr: tailbuf.New(stderrTail), exited: make(chan struct{})}
	if sockDir != "" {
		p.cleanup = func() { _ = os.RemoveAll(sockDir) }
	}
	p.tree.Prepare(cmd)
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		if p.cleanup != nil {
			p.cleanup()
		}
		return nil, fmt.Errorf("start debug adapter %s (%s): %w", a.Name, a.Path, err)
	}
	p.tree.Started(cmd)
	go func() { // owner: the process; ends when the adapter exits
		err := cmd.Wait()
		p.code = cmd.ProcessState.ExitCode()
		_ = err
		close(p.exited)
	}()
	if a.Connect != ConnectSocket {
		return newClient(a.Name, stdout, stdin, stdin, p, opts.Hooks), nil
	}
	// A socket-mode adapter's standard output is free for the program it
	// runs (dlv's debuggee writes there): once connected it goes to the
	// session's output; what comes before (the listening banner) only to
	// the error tail.
	out := &switchWriter{w: p.stderr}
	go func() { _, _ = io.Copy(out, stdout) }() // owner: the process; ends with its output
	conn, err := dialSocket(ctx, sock, p)
	if err != nil {
		_ = stdin.Close()
		p.end()
		return nil, err
	}
	if opts.Hooks.Terminal != nil {
		out.set(opts.Hooks.Terminal)
	}
	return newClient(a.Name, conn, conn, multiCloser{conn, stdin}, p, opts.Hooks), nil
}

// switchWriter writes to a writer that can be changed while it is used.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}

// Write writes p to the current writer.
func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// dialSocket waits for the adapter to listen on sock and connects.
func dialSocket(ctx context.Context, sock string, p *process) (net.Conn, error) {
	deadline := time.NewTimer(SocketReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		// The socket file appears at bind, before the adapter listens:
		// a refused connection is tried again until the deadline.
		if _, err := os.Stat(sock); err == nil {
			var d net.Dialer
			conn, err := d.DialContext(ctx, "unix", sock)
			if err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
				return conn, err
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-p.exited:
			return nil, fmt.Errorf("Adapter process exited before socket was ready: %w", p.exitError())
		case <-deadline.C:
			return nil, fmt.Errorf("Socket not ready after %dms", SocketReadyTimeout.Milliseconds())
		case <-tick.C:
		}
	}
}

// multiCloser closes several things, returning the first error.
type multiCloser []io.Closer

// Close closes each in turn.
func (m multiCloser) Close() error {
	var errs []error
	for _, c := range m {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// newReader buffers the adapter's stream for the framing.
func newReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 64*1024) }
