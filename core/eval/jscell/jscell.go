// Package jscell runs the eval tool's JavaScript cells in process, on
// goja (the engine core/extensions uses), one runtime per session.
//
// A runtime keeps its globals between cells. Top-level const and let
// become var, so a later cell sees them and may declare them again. A
// cell that only parses with await or a top-level return runs inside an
// async function, whose top-level declarations are made globals; its
// returned value is shown. Otherwise the value of the cell's last
// expression is.
// The prelude (prelude.js) installs display, print, console and the file
// helpers (synchronous Go functions behind promises), and tool.<name>,
// which calls one of the session's tools through Options.CallTool.
//
// There is no event loop: promises settle when everything they wait for
// has (the helpers settle at once); a cell whose promise is still pending
// at its end fails with a message saying so. A cell is interrupted at its
// timeout or when its context ends (goja's Interrupt); the runtime keeps
// what the cell had set before.
package jscell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	_ "embed"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/eval/cell"
)

//go:embed prelude.js
var prelude string

// Options configure a Runtime.
type Options struct {
	Resolve  func(path string) string                              // a helper's path made absolute (the session's directory, ~)
	ReadFile func(ctx context.Context, abs string) ([]byte, error) // how read and diff read files
	// WriteFile is how write and append write (creating the parent
	// directories): the session's write tool, through its checks.
	WriteFile func(ctx context.Context, abs string, data []byte) error
	Environ   []string // what env() shows and changes (KEY=VALUE), already filtered
	// CallTool runs one of the session's tools for tool.<name>(args),
	// args being the JSON object; it returns the result's text, or an
	// error the cell sees thrown. nil: tool.<name> throws.
	CallTool func(ctx context.Context, name string, args json.RawMessage) (string, error)
	// MemoryLimit is how much the Go heap may grow during one cell
	// before the cell is stopped; 0: MemoryLimit.
	MemoryLimit uint64
}

// Runtime is one session's JavaScript context.
type Runtime struct {
	opts Options

	mu  sync.Mutex // one cell at a time; guards the fields below
	rt  *goja.Runtime
	cur *cellRun          // the running cell, for the host functions
	env map[string]string // env()'s variables
}

// New returns a runtime; the engine is made on the first cell.
func New(opts Options) *Runtime { return &Runtime{opts: opts} }

// errTimeout interrupts a cell at its timeout; errCancelled when the call
// is aborted.
var (
	errTimeout   = errors.New("timeout")
	errCancelled = errors.New("cancelled")
)

// Reset drops the runtime's globals; the next cell starts afresh.
func (r *Runtime) Reset() {
	r.mu.Lock()
	r.rt = nil
	r.mu.Unlock()
}

// Run runs one cell.
func (r *Runtime) Run(ctx context.Context, req cell.Request) (res cell.Result, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.Reset || r.rt == nil {
		if err := r.init(); err != nil {
			return res, err
		}
	}
	// The cell's context ends at its timeout too, so that a tool call or
	// helper waiting in Go stops with it, not only the JavaScript.
	cctx, cancel := context.WithTimeoutCause(ctx, req.Timeout, errTimeout)
	defer cancel()
	c := &cellRun{ctx: cctx, req: req, res: &res}
	r.cur = c
	defer func() { r.cur = nil }()
	reset := false // the runtime is dropped after the cell
	var runErr error
	fired := make(chan struct{})
	stop := context.AfterFunc(cctx, func() {
		defer close(fired)
		if errors.Is(context.Cause(cctx), errTimeout) {
			r.rt.Interrupt(errTimeout)
		} else {
			r.rt.Interrupt(errCancelled)
		}
	})
	defer func() {
		if !stop() {
			<-fired // an interrupt on its way must land before it is cleared
		}
		r.rt.ClearInterrupt()
		var so *goja.StackOverflowError
		if (res.Cancelled || errors.As(runErr, &so)) && !reset && !settles(r.rt) {
			reset = true
			res.Notes = append(res.Notes, noteBroken)
		}
		if reset {
			r.rt = nil
		}
		if p := recover(); p != nil {
			fmt.Fprintf(req.Output, "Internal error in the JavaScript runtime: %v\n", p)
			res.ExitCode = 1
		}
	}()
	cc, runErr := compileCell(req.Code)
	var val goja.Value
	if runErr == nil {
		unwatch := watchMemory(r.rt, r.memoryLimit())
		val, runErr = r.rt.RunProgram(cc.prog)
		if runErr == nil {
			val, runErr = settle(r.rt, val)
		}
		unwatch()
	}
	var ie *goja.InterruptedError
	switch {
	case errors.As(runErr, &ie) && ie.Value() == errMemory:
		// what the cell built may still be referenced from its globals
		fmt.Fprintln(req.Output, memoryText(r.memoryLimit()))
		res.ExitCode = 1
		reset = true
	case errors.As(runErr, &ie):
		res.Cancelled = true
		res.TimedOut = ie.Value() == errTimeout
		res.ExitCode = 1
	case runErr != nil && cctx.Err() != nil:
		// a helper or tool call stopped by the timeout or the abort
		res.Cancelled, res.ExitCode = true, 1
		res.TimedOut = errors.Is(context.Cause(cctx), errTimeout)
	case runErr != nil:
		fmt.Fprintln(req.Output, cc.errorText(runErr))
		res.ExitCode = 1
	case val != nil && !goja.IsUndefined(val) && !goja.IsNull(val):
		r.show(val)
	}
	return res, nil
}

// maxCallDepth bounds a cell's nested calls: runaway recursion throws a
// RangeError instead of growing until the timeout or the memory limit.
const maxCallDepth = 10000

// init makes a fresh engine with the prelude.
func (r *Runtime) init() error {
	rt := goja.New()
	rt.SetMaxCallStackSize(maxCallDepth)
	r.env = map[string]string{}
	for _, kv := range r.opts.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			r.env[k] = v
		}
	}
	host := r.host(rt)
	host["maxLength"] = MaxLength
	if err := rt.Set("__gopi", host); err != nil {
		return err
	}
	if _, err := rt.RunScript("prelude", prelude); err != nil {
		return fmt.Errorf("the JavaScript prelude failed: %w", err)
	}
	r.rt = rt
	return nil
}

// noteBroken says that an interrupted cell left the runtime unusable.
const noteBroken = "The interruption left the JavaScript runtime unable to settle promises, so it was reset: the next cell starts without the globals of earlier cells."

// settles reports whether rt still runs its promise jobs. goja keeps its
// call stack when an interrupt lands inside a nested call (a helper or
// tool call), after which no promise settles any more.
func settles(rt *goja.Runtime) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	v, err := rt.RunString("(async () => { await 0; return 1 })()")
	if err != nil {
		return false
	}
	p, isPromise := v.Export().(*goja.Promise)
	return isPromise && p.State() == goja.PromiseStateFulfilled
}

// settle waits out a promise the cell returned: its value, or its
// rejection as an error.
func settle(rt *goja.Runtime, val goja.Value) (goja.Value, error) {
	p, ok := val.Export().(*goja.Promise)
	if !ok {
		return val, nil
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result(), nil
	case goja.PromiseStateRejected:
		return nil, &rejection{val: p.Result()}
	}
	return nil, errors.New("the cell's promise was still pending when the cell ended: there is no event loop (no setTimeout or network); await only the helpers and tool calls")
}

// rejection is a rejected promise's reason.
type rejection struct{ val goja.Value }

func (e *rejection) Error() string {
	if o, ok := e.val.(*goja.Object); ok {
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			return st.String()
		}
	}
	return "Uncaught " + e.val.String()
}
