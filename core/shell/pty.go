//go:build unix

package shell

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// PTYRequest is a command to run in a pseudo-terminal.
type PTYRequest struct {
	Request
	Cols, Rows int           // terminal size; 0 is 80x24
	Input      <-chan []byte // what the user types; closing it (the user dismissed the terminal) ends the command
	Raw        io.Writer     // receives the terminal output as is (for display); may be nil
}

// RunPTY runs req in a fresh shell whose standard input, output and error
// are a pseudo-terminal. req.Output receives the output with line endings
// normalised ("\r\n" and lone "\r" become "\n"). The shell is a new
// session; ending it (timeout, ctx, input closed) ends its process group.
func RunPTY(ctx context.Context, cfg Config, req PTYRequest) (Result, error) {
	for k := range req.Env {
		if !envName().MatchString(k) {
			return Result{}, fmt.Errorf("invalid environment variable name %q", k)
		}
	}
	text := cfg.preamble() + exportLine(cfg.builtinWord(), envPairs(req.Env)) + cfg.withPrefix(req.Command)
	cmd := exec.Command(cfg.Path, append(cfg.args("-c"), text)...)
	cmd.Dir = req.Dir
	cmd.Env = cfg.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	childproc.Prepare(cmd) // guarded; the new session is its group
	cols, rows := req.Cols, req.Rows
	if cols <= 0 || rows <= 0 {
		cols, rows = 80, 24
	}
	tty, err := pty.StartWithAttrs(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}, cmd.SysProcAttr)
	if err != nil {
		return Result{}, fmt.Errorf("start a terminal for %s: %w", cfg.Path, err)
	}
	defer tty.Close()
	pgid := cmd.Process.Pid
	if err := cfg.owner.started(pgid); err != nil {
		_ = cmd.Wait()
		return Result{}, err
	}
	defer cfg.owner.ended(pgid)

	out := discard(req.Output)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		var norm crlf
		buf := make([]byte, 32<<10)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				if req.Raw != nil {
					_, _ = req.Raw.Write(buf[:n])
				}
				_, _ = out.Write(norm.convert(buf[:n]))
			}
			if err != nil { // EIO once every process has closed the terminal
				if rest := norm.flush(); len(rest) > 0 {
					_, _ = out.Write(rest)
				}
				return
			}
		}
	}()
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	stopInput := make(chan struct{})
	dismissed := make(chan struct{})
	var inputDone sync.WaitGroup
	if req.Input != nil {
		inputDone.Add(1)
		go func() {
			defer inputDone.Done()
			for {
				select {
				case p, ok := <-req.Input:
					if !ok {
						close(dismissed)
						return
					}
					_, _ = tty.Write(p)
				case <-stopInput:
					return
				}
			}
		}()
	}

	var timeout <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	res := Result{OneShot: true, Dir: req.Dir}
	select {
	case <-exited:
	case <-ctx.Done():
		res.Cancelled = true
	case <-dismissed:
		res.Cancelled = true
	case <-timeout:
		res.TimedOut = true
	}
	if res.Cancelled || res.TimedOut {
		endGroup(pgid, cfg.grace())
	}
	<-exited
	killGroup(pgid)
	close(stopInput)
	inputDone.Wait()
	select {
	case <-copied:
	case <-time.After(drainWait):
		tty.Close() // a process outside the group still holds the terminal
		<-copied
	}
	if !res.Cancelled && !res.TimedOut {
		res.ExitCode, res.Exited = exitStatus(waitErr, cmd)
	}
	return res, nil
}

// RunPTY runs req in a pseudo-terminal (see the function RunPTY) whose
// processes belong to the pool: Close ends them. req.Dir "" is Dir().
func (p *Pool) RunPTY(ctx context.Context, req PTYRequest) (Result, error) {
	if req.Dir == "" {
		req.Dir = p.Dir()
	}
	return RunPTY(ctx, p.cfg, req)
}

// envPairs returns env as sorted pairs.
func envPairs(env map[string]string) [][2]string {
	var out [][2]string
	for _, kv := range envAssignments(env) {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, [2]string{k, v})
	}
	return out
}

// crlf converts "\r\n" and lone "\r" to "\n" across chunks.
type crlf struct{ cr bool }

func (c *crlf) convert(p []byte) []byte {
	out := make([]byte, 0, len(p))
	for _, b := range p {
		if c.cr {
			c.cr = false
			out = append(out, '\n')
			if b == '\n' {
				continue
			}
		}
		if b == '\r' {
			c.cr = true
			continue
		}
		out = append(out, b)
	}
	return out
}

func (c *crlf) flush() []byte {
	if c.cr {
		c.cr = false
		return []byte{'\n'}
	}
	return nil
}
