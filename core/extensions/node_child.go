package extensions

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// procGroup owns the processes child_process started: each runs in a
// process group of its own under ctx, and close (with the runtime) kills
// every group still running and waits for their readers.
type procGroup struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newProcGroup() *procGroup {
	ctx, cancel := context.WithCancel(context.Background())
	return &procGroup{ctx: ctx, cancel: cancel}
}

// close kills what is left and waits for the goroutines that watched it.
func (g *procGroup) close() {
	g.cancel()
	g.wg.Wait()
}

// spawnPrimitive is the native part of child_process (node.js builds
// spawn, exec, execFile and their Sync forms on it):
// spawn(file, args, {cwd, env, timeout}, onEvent) starts file in a process
// group of its own and calls onEvent("stdout"|"stderr", Buffer),
// onEvent("exit", code, signal) and onEvent("error", Error) on the
// engine's goroutine; it returns {pid, kill(signal), write(data), end()}.
// runSync(file, args, {cwd, env, timeout, input, maxBuffer}) runs one to the end and
// returns {stdout, stderr, status, signal, error}.
func (r *Runtime) spawnPrimitive(rt *goja.Runtime) goja.Value {
	o := rt.NewObject()
	_ = o.Set("spawn", func(file string, args []string, opts *goja.Object, onEvent goja.Callable) goja.Value {
		return r.spawnChild(rt, file, args, opts, onEvent)
	})
	_ = o.Set("runSync", func(file string, args []string, opts *goja.Object) goja.Value {
		return r.runChildSync(rt, file, args, opts)
	})
	return o
}

// command makes the exec.Cmd of a child under ctx, in its own group.
func (r *Runtime) command(ctx context.Context, rt *goja.Runtime, file string, args []string, opts *goja.Object) *exec.Cmd {
	cmd := exec.CommandContext(ctx, file, args...)
	cmd.Dir = r.cwd()
	cmd.Env = r.node.environ
	if opts != nil {
		if d := optString(opts.Get("cwd")); d != "" {
			cmd.Dir = d
		}
		var env map[string]string
		if e := opts.Get("env"); e != nil && !goja.IsUndefined(e) && !goja.IsNull(e) && rt.ExportTo(e, &env) == nil {
			cmd.Env = cmd.Env[:0:0]
			for k, v := range env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
	}
	cmd.WaitDelay = 2 * time.Second
	childproc.PrepareCancelGroup(cmd)
	return cmd
}

func timeoutOf(opts *goja.Object) time.Duration {
	if opts == nil {
		return 0
	}
	if t := opts.Get("timeout"); t != nil && !goja.IsUndefined(t) {
		return time.Duration(t.ToInteger()) * time.Millisecond
	}
	return 0
}

func (r *Runtime) spawnChild(rt *goja.Runtime, file string, args []string, opts *goja.Object, onEvent goja.Callable) goja.Value {
	ctx, cancel := r.node.procs.ctx, context.CancelFunc(func() {})
	if t := timeoutOf(opts); t > 0 {
		ctx, cancel = context.WithTimeout(ctx, t)
	}
	cmd := r.command(ctx, rt, file, args, opts)
	emit := func(kind string, vals ...func() goja.Value) {
		r.vm.post(func() {
			args := []goja.Value{rt.ToValue(kind)}
			for _, v := range vals {
				args = append(args, v())
			}
			if _, err := onEvent(goja.Undefined(), args...); err != nil {
				r.report(LoadError{Path: "(child_process)", Event: kind, Err: jsError(err).Error()})
			}
		})
	}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	h := rt.NewObject()
	if err := cmd.Start(); err != nil {
		cancel()
		emit("error", func() goja.Value { return nodeError(rt, err) })
		return h
	}
	_ = h.Set("pid", cmd.Process.Pid)
	_ = h.Set("kill", func(sig goja.Value) bool {
		s := syscall.SIGTERM
		if sig != nil && !goja.IsUndefined(sig) && (sig.String() == "SIGKILL" || sig.String() == "9") {
			s = syscall.SIGKILL
		}
		return signalGroup(cmd, s) == nil // the shell exec runs, and what it started
	})
	_ = h.Set("write", func(data goja.Value) bool {
		_, err := stdin.Write(dataBytes(rt, data, ""))
		return err == nil
	})
	_ = h.Set("end", func() { _ = stdin.Close() })
	pump := func(kind string, rd io.Reader, done *sync.WaitGroup) {
		defer done.Done()
		buf := make([]byte, 32*1024)
		for {
			n, err := rd.Read(buf)
			if n > 0 {
				chunk := append([]byte(nil), buf[:n]...)
				emit(kind, func() goja.Value { return buffer.WrapBytes(rt, chunk) })
			}
			if err != nil {
				return
			}
		}
	}
	g := r.node.procs
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer cancel()
		var readers sync.WaitGroup
		readers.Add(2)
		go pump("stdout", stdout, &readers)
		go pump("stderr", stderr, &readers)
		readers.Wait()
		err := cmd.Wait()
		endGroup(cmd)
		code, signal := exitOf(cmd, err)
		emit("exit", func() goja.Value { return code(rt) }, func() goja.Value { return signal(rt) })
	}()
	return h
}

// exitOf is a finished child's exit code and signal as Node gives them:
// one of them null.
func exitOf(cmd *exec.Cmd, err error) (code, signal func(*goja.Runtime) goja.Value) {
	null := func(*goja.Runtime) goja.Value { return goja.Null() }
	if cmd.ProcessState == nil {
		return func(rt *goja.Runtime) goja.Value { return rt.ToValue(-1) }, null
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		name := signalName(ws.Signal())
		return null, func(rt *goja.Runtime) goja.Value { return rt.ToValue(name) }
	}
	c := cmd.ProcessState.ExitCode()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && c == 0 {
		c = -1
	}
	return func(rt *goja.Runtime) goja.Value { return rt.ToValue(c) }, null
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return "SIG" + s.String()
}

// runChildSync runs a child to its end on the engine's goroutine, within
// its timeout and never longer than the handler budget.
func (r *Runtime) runChildSync(rt *goja.Runtime, file string, args []string, opts *goja.Object) goja.Value {
	t := timeoutOf(opts)
	if t <= 0 || t > r.opts.Budget {
		t = r.opts.Budget
	}
	ctx, cancel := context.WithTimeout(r.node.procs.ctx, t)
	defer cancel()
	cmd := r.command(ctx, rt, file, args, opts)
	if opts != nil {
		if in := opts.Get("input"); in != nil && !goja.IsUndefined(in) && !goja.IsNull(in) {
			cmd.Stdin = bytes.NewReader(dataBytes(rt, in, ""))
		}
	}
	limit := maxBufferOf(opts)
	stdout, stderr := &cappedBuffer{max: limit, over: cancel}, &cappedBuffer{max: limit, over: cancel}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	endGroup(cmd)
	code, signal := exitOf(cmd, err)
	res := rt.NewObject()
	_ = res.Set("stdout", buffer.WrapBytes(rt, stdout.buf.Bytes()))
	_ = res.Set("stderr", buffer.WrapBytes(rt, stderr.buf.Bytes()))
	_ = res.Set("status", code(rt))
	_ = res.Set("signal", signal(rt))
	var ee *exec.ExitError
	switch {
	case stdout.over == nil || stderr.over == nil: // passed maxBuffer: stopped
		e := newError(rt, "spawnSync "+file+" ENOBUFS")
		_ = e.Set("code", "ENOBUFS")
		_ = e.Set("errno", -int(syscall.ENOBUFS))
		_ = res.Set("error", e)
	case err != nil && !errors.As(err, &ee):
		_ = res.Set("error", nodeError(rt, err))
	}
	return res
}

// defaultMaxBuffer is Node's maxBuffer: the bytes of each output stream
// exec, execFile and the synchronous calls keep before stopping the
// child.
const defaultMaxBuffer = 1024 * 1024

// maxBufferOf is the call's maxBuffer (Infinity: no bound).
func maxBufferOf(opts *goja.Object) int64 {
	if opts != nil {
		if v := opts.Get("maxBuffer"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
			switch f := v.ToFloat(); {
			case f >= math.MaxInt64/2:
				return math.MaxInt64
			case f >= 0:
				return int64(f)
			}
		}
	}
	return defaultMaxBuffer
}

// cappedBuffer keeps the first max bytes written to it; the first write
// past them calls over (which stops the child) and sets it to nil, and
// the rest is dropped.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int64
	over func()
}

// Write keeps what fits; it never fails, so the child is drained until
// it is stopped.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	room := c.max - int64(c.buf.Len())
	if room >= int64(len(p)) {
		c.buf.Write(p)
		return len(p), nil
	}
	c.buf.Write(p[:max(room, 0)])
	if c.over != nil {
		c.over()
		c.over = nil
	}
	return len(p), nil
}
