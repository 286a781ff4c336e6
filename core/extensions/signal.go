package extensions

import (
	"context"

	"github.com/dop251/goja"
)

// callSignal is the AbortSignal a tool call's execute receives: aborted
// once the call's context ends (the caller's abort or the tool's time
// limit), when its "abort" listeners and onabort run on the engine's
// goroutine. pi.exec finds the context on it to stop its processes.
type callSignal struct {
	r     *Runtime
	path  string // the extension, for reports
	ctx   context.Context
	stop  func() bool   // stops the watch on ctx
	fired chan struct{} // closed once abort has run

	// Only touched on the engine's goroutine.
	obj       *goja.Object
	listeners []goja.Callable
}

// newSignal returns the signal of a call of path's tool running under
// ctx; release it when the call has returned.
func (r *Runtime) newSignal(ctx context.Context, path string) *callSignal {
	s := &callSignal{r: r, path: path, ctx: ctx, fired: make(chan struct{})}
	s.stop = context.AfterFunc(ctx, s.abort)
	return s
}

// abort runs the listeners within a handler's budget.
func (s *callSignal) abort() {
	defer close(s.fired)
	_ = s.r.vm.do(s.r.opts.Budget, func(*goja.Runtime) error { s.fire(); return nil })
}

// release ends the signal's watch once the call has returned: a call that
// finished in time fires nothing; one whose context ended (time limit or
// abort) has its listeners run before release returns, whether or not
// the watch had got to them yet.
func (s *callSignal) release() {
	if !s.stop() {
		<-s.fired // the watch is running them
		return
	}
	if s.ctx.Err() != nil {
		s.abort()
	}
}

// object builds the JavaScript object (on the engine's goroutine).
func (s *callSignal) object(rt *goja.Runtime) goja.Value {
	o := rt.NewObject()
	ctx := s.ctx
	_ = o.DefineAccessorProperty("aborted", rt.ToValue(func() bool { return ctx.Err() != nil }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = o.DefineAccessorProperty("reason", rt.ToValue(func() goja.Value {
		if err := context.Cause(ctx); err != nil {
			return rt.NewGoError(err)
		}
		return goja.Undefined()
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = o.Set("addEventListener", func(c goja.FunctionCall) goja.Value {
		if fn, ok := goja.AssertFunction(c.Argument(1)); ok && c.Argument(0).String() == "abort" {
			s.listeners = append(s.listeners, fn)
		}
		return goja.Undefined()
	})
	_ = o.Set("removeEventListener", func(c goja.FunctionCall) goja.Value {
		for i, fn := range s.listeners {
			if rt.ToValue(fn).SameAs(c.Argument(1)) {
				s.listeners = append(s.listeners[:i], s.listeners[i+1:]...)
				break
			}
		}
		return goja.Undefined()
	})
	_ = o.Set("throwIfAborted", func(goja.FunctionCall) goja.Value {
		if err := context.Cause(ctx); err != nil {
			panic(rt.NewGoError(err))
		}
		return goja.Undefined()
	})
	// pi.exec reads the call's context from here to stop its processes.
	_ = o.DefineDataProperty("__gopiCtx", rt.ToValue(ctx), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	s.obj = o
	return o
}

// fire runs the abort listeners, then onabort (on the engine's
// goroutine, within a handler's budget); a listener that throws is
// reported.
func (s *callSignal) fire() {
	o := s.obj
	if o == nil {
		return // execute was never called
	}
	ev := s.r.vm.rt.NewObject()
	_ = ev.Set("type", "abort")
	_ = ev.Set("target", o)
	fns := append([]goja.Callable(nil), s.listeners...)
	if fn, ok := goja.AssertFunction(o.Get("onabort")); ok {
		fns = append(fns, fn)
	}
	for _, fn := range fns {
		if err := guardJS(func() error { _, err := fn(o, ev); return err }); err != nil {
			s.r.report(LoadError{Path: s.path, Event: "abort", Err: jsError(err).Error()})
		}
	}
}
