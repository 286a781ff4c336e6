package extensions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// Custom tools (omp's CustomToolFactory): a module whose default export
// receives the custom tool API and returns a tool, a list of tools, or a
// promise of either. Their execute takes (toolCallId, params, onUpdate,
// ctx, signal) — not an extension tool's order — and an optional
// onSession(event, ctx) hears the session's start, switch, branch, tree and
// shutdown.

// ErrNoPendingStore is what pushPendingAction answers before the session
// exists.
var ErrNoPendingStore = errors.New("Pending action store unavailable for custom tools in this runtime.")

// loadCustomTools runs a custom tool module's factory and registers what
// it returns.
func (r *Runtime) loadCustomTools(x *ext, factory goja.Callable) error {
	val, err := r.vm.call(context.Background(), loadBudget, factory,
		func(rt *goja.Runtime) goja.Value { return r.customToolAPI(rt, x) })
	if err != nil {
		return err
	}
	return r.vm.do(loadBudget, func(rt *goja.Runtime) error {
		if val == nil || goja.IsUndefined(val) || goja.IsNull(val) {
			return errors.New("the factory returned nothing: return a tool ({ name, description, parameters, execute }) or a list of tools")
		}
		var defs []*goja.Object
		if arr, ok := val.Export().([]any); ok {
			obj := val.ToObject(rt)
			for i := range arr {
				defs = append(defs, obj.Get(fmt.Sprint(i)).ToObject(rt))
			}
		} else {
			defs = append(defs, val.ToObject(rt))
		}
		for _, o := range defs {
			t, err := r.newTool(rt, x, o)
			if err != nil {
				return err
			}
			t.custom = true
			for _, old := range x.tools {
				if old.def.Name == t.def.Name {
					return fmt.Errorf("the module returns two tools named %s", t.def.Name)
				}
			}
			if fn, ok := goja.AssertFunction(o.Get("onSession")); ok {
				x.handlers["__onSession"] = append(x.handlers["__onSession"], fn)
			}
			x.tools = append(x.tools, t)
		}
		return nil
	})
}

// customToolAPI is the object a custom tool factory receives.
func (r *Runtime) customToolAPI(rt *goja.Runtime, x *ext) *goja.Object {
	api := rt.NewObject()
	getter := func(name string, fn func() goja.Value) {
		_ = api.DefineAccessorProperty(name, rt.ToValue(func(goja.FunctionCall) goja.Value { return fn() }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	getter("cwd", func() goja.Value {
		if h := r.hostOrNil(); h != nil {
			return rt.ToValue(h.Cwd())
		}
		return rt.ToValue(r.opts.Cwd)
	})
	getter("hasUI", func() goja.Value {
		h := r.hostOrNil()
		return rt.ToValue(h != nil && h.UI() != nil)
	})
	getter("ui", func() goja.Value {
		var ui tool.UI
		if h := r.hostOrNil(); h != nil {
			ui = h.UI()
		}
		return r.uiObject(rt, ui)
	})
	_ = api.Set("logger", rt.Get("console"))
	_ = api.Set("zod", rt.Get("__gopiZodModule"))
	_ = api.Set("typebox", rt.Get("__gopiTypebox"))
	pkg := rt.NewObject()
	_ = pkg.Set("z", rt.Get("__gopiZod"))
	_ = pkg.Set("StringEnum", rt.Get("__gopiStringEnum"))
	_ = pkg.Set("logger", rt.Get("console"))
	_ = api.Set("pi", pkg)
	_ = api.Set("exec", func(c goja.FunctionCall) goja.Value { return r.jsExec(rt, c) })
	_ = api.Set("pushPendingAction", func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		if !ok {
			panic(rt.NewTypeError("pushPendingAction: expected { label, apply, reject? }"))
		}
		apply, ok := goja.AssertFunction(o.Get("apply"))
		if !ok {
			panic(rt.NewTypeError("pushPendingAction: apply is not a function"))
		}
		reject, _ := goja.AssertFunction(o.Get("reject"))
		h := r.hostOrNil()
		if h == nil {
			panic(rt.NewGoError(ErrNoPendingStore))
		}
		label := optString(o.Get("label"))
		run := func(fn goja.Callable) func(ctx context.Context, reason string) (*tool.Result, error) {
			if fn == nil {
				return nil
			}
			return func(ctx context.Context, reason string) (*tool.Result, error) {
				val, err := r.vm.call(ctx, r.opts.ToolBudget, fn, func(rt *goja.Runtime) goja.Value { return rt.ToValue(reason) })
				if err != nil {
					return nil, err
				}
				var res *tool.Result
				err = r.vm.do(r.opts.Budget, func(*goja.Runtime) error {
					var e error
					res, e = resultFrom(val)
					return e
				})
				return res, err
			}
		}
		if err := h.PushPendingAction(label, run(apply), run(reject)); err != nil {
			panic(rt.NewGoError(err))
		}
		return goja.Undefined()
	})
	return api
}

// jsExec is pi.exec(command, args, {cwd, timeout, signal}): it runs a
// program (no shell) in a process group of its own and resolves to
// {stdout, stderr, code, killed}. The signal of a tool call, or the
// timeout, stops the whole group; what the program leaves running when it
// exits is ended too.
func (r *Runtime) jsExec(rt *goja.Runtime, c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	var args []string
	_ = exportTo(c.Argument(1), &args)
	ctx := context.Background()
	cwd := ""
	var timeout time.Duration
	if o, ok := c.Argument(2).(*goja.Object); ok {
		cwd = optString(o.Get("cwd"))
		if t := o.Get("timeout"); t != nil && !goja.IsUndefined(t) {
			timeout = time.Duration(t.ToInteger()) * time.Millisecond
		}
		if s, ok := o.Get("signal").(*goja.Object); ok {
			if sc, ok := s.Get("__gopiCtx").Export().(context.Context); ok {
				ctx = sc
			}
		}
	}
	if cwd == "" {
		if h := r.hostOrNil(); h != nil {
			cwd = h.Cwd()
		} else {
			cwd = r.opts.Cwd
		}
	}
	return r.async(rt, func() (any, error) {
		if timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = cwd
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.WaitDelay = 2 * time.Second
		childproc.PrepareCancelGroup(cmd)
		err := cmd.Run()
		endGroup(cmd) // what it left running in the background
		code := 0
		var exitErr *exec.ExitError
		switch {
		case errors.As(err, &exitErr):
			code = exitErr.ExitCode()
		case err != nil && ctx.Err() == nil:
			return nil, fmt.Errorf("exec %s: %w", name, err)
		}
		return map[string]any{"stdout": stdout.String(), "stderr": stderr.String(), "code": code, "killed": ctx.Err() != nil}, nil
	})
}

// onSessionOf tells x's custom tools about a session event.
func (r *Runtime) onSessionOf(x *ext, reason string) {
	for _, fn := range x.handlers["__onSession"] {
		if _, err := r.callHandler(context.Background(), extHandler{x, fn}, "session", map[string]any{"reason": reason}); err != nil {
			r.report(LoadError{Path: x.entry.Path, Event: "onSession", Err: err.Error()})
		}
	}
}

// onSession tells the custom tools of every module about a session
// event (reason start, switch, branch, tree or shutdown); failures are
// reported as warnings.
func (r *Runtime) onSession(reason string) {
	for _, h := range r.handlers("__onSession") {
		if _, err := r.callHandler(context.Background(), h, "session", map[string]any{"reason": reason}); err != nil {
			r.report(LoadError{Path: h.x.entry.Path, Event: "onSession", Err: err.Error()})
		}
	}
}
