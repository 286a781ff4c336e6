package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/tailbuf"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// Transport is the byte stream to one language server and the handle on
// its life. A Client speaks JSON-RPC over it; the Manager gets one from
// its Dial function, which starts a process (Spawn) or, later, could
// connect to a server another gopi process shares.
type Transport interface {
	io.ReadWriteCloser // the server's stdin (Write, Close) and stdout (Read)
	// Done is closed once the server is gone.
	Done() <-chan struct{}
	// Err says why the server is gone (its exit code and the last lines of
	// its standard error); nil before Done.
	Err() error
	// Kill ends the server and everything it started, now.
	Kill()
}

// Sharing is implemented by a Transport that knows whether its server is
// shared with other gopi processes (core/lsp/share).
type Sharing interface {
	// Sharing says so in a few words for the lsp tool's status ("shared:
	// runs in gopi process 123", "not shared: …"); shared reports whether
	// other clients talk to the same server, and may change what it holds.
	Sharing() (note string, shared bool)
}

// DialFunc starts (or connects to) the server s for the workspace root.
type DialFunc func(ctx context.Context, s *Server, root string) (Transport, error)

// stderrTail is how much of a server's standard error is kept for the
// message that reports its exit.
const stderrTail = 4096

// waitDelay bounds how long reaping a server waits for its standard error
// to close once it has exited (a child it left behind may hold it).
const waitDelay = 2 * time.Second

// Spawn starts s's program in root as a child process in a process group
// of its own that ends with gopi (internal/childproc). env is the
// environment of the server (nil: gopi's).
func Spawn(env []string) DialFunc {
	return func(_ context.Context, s *Server, root string) (Transport, error) {
		path := s.Path
		if path == "" {
			path = s.Command
		}
		// The process lives until Kill, not until the caller's context
		// ends: it is shared by later calls.
		life, kill := context.WithCancel(context.Background())
		cmd := exec.CommandContext(life, path, s.Args...)
		cmd.Dir = root
		cmd.Env = env
		childproc.PrepareCancelGroup(cmd)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			kill()
			return nil, err
		}
		// Our own pipe for stdout, so that reaping the process does not
		// close it under the reader: what the server wrote last is read.
		stdout, w, err := os.Pipe()
		if err != nil {
			kill()
			return nil, err
		}
		cmd.Stdout = w
		cmd.WaitDelay = waitDelay
		p := &process{stdin: stdin, stdout: stdout, stderr: tailbuf.New(stderrTail), kill: kill, done: make(chan struct{})}
		cmd.Stderr = p.stderr
		err = cmd.Start()
		w.Close()
		if err != nil {
			stdout.Close()
			kill()
			return nil, fmt.Errorf("start %s: %w", s.Command, err)
		}
		go p.wait(cmd)
		return p, nil
	}
}

// process is a server child process.
type process struct {
	stdin  io.WriteCloser
	stdout *os.File
	stderr *tailbuf.Buffer
	kill   context.CancelFunc
	done   chan struct{}
	err    error // set before done is closed
}

// Read, Write, Done and Kill implement Transport over the process's
// pipes and life.
func (p *process) Read(b []byte) (int, error)  { return p.stdout.Read(b) }
func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }
func (p *process) Done() <-chan struct{}       { return p.done }
func (p *process) Kill()                       { p.kill() }

// Close closes both ends of the stream: the server's standard input (a
// well-behaved server exits on it after "exit") and gopi's end of its
// standard output.
func (p *process) Close() error { return errors.Join(p.stdin.Close(), p.stdout.Close()) }

// Err says why the process ended; nil while it runs.
func (p *process) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// wait reaps the process and records why it ended.
func (p *process) wait(cmd *exec.Cmd) {
	err := cmd.Wait()
	code := -1
	var exit *exec.ExitError
	if err == nil {
		code = 0
	} else if errors.As(err, &exit) {
		code = exit.ExitCode()
	}
	if tail := cleanStderr(p.stderr.String()); tail != "" {
		p.err = fmt.Errorf("LSP server exited (code %d): %s", code, tail)
	} else {
		p.err = fmt.Errorf("LSP server exited unexpectedly (code %d)", code)
	}
	p.kill() // the rest of its group
	close(p.done)
}

// logLine matches a server's routine log lines ("[12:00:01 INF] …"),
// which say nothing about why it ended.
var logLine = regexp.MustCompile(`^\[\d{2}:\d{2}:\d{2} (?:INF|DBG|VRB)\]`)

// cleanStderr drops routine log lines and joins the rest into one line.
func cleanStderr(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !logLine.MatchString(l) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, " | ")
}
