package extensions

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// vm is one JavaScript engine (goja) and the goroutine that owns it: the
// engine is not safe for concurrent use, so everything that touches it —
// loading modules, calling handlers, timers firing, promise callbacks —
// runs as a job on that goroutine. Callers from other goroutines post a
// job and wait for its answer; a handler that runs too long is
// interrupted, and one whose promise never settles is given up on.
type vm struct {
	rt     *goja.Runtime
	jobs   chan func()
	stop   chan struct{}
	done   chan struct{}
	closed sync.Once

	// Only touched on the loop goroutine.
	timers    map[int64]*time.Timer
	nextTimer int64
}

// ErrBudget is returned when a handler exceeds its time budget.
var ErrBudget = errors.New("the extension's handler exceeded its time budget")

// errClosed is returned once the engine has stopped.
var errClosed = errors.New("the extension runtime has stopped")

func newVM() *vm {
	v := &vm{rt: goja.New(), jobs: make(chan func(), 256), stop: make(chan struct{}), done: make(chan struct{}), timers: map[int64]*time.Timer{}}
	v.rt.SetFieldNameMapper(goja.TagFieldNameMapper("json", true))
	go v.loop()
	return v
}

func (v *vm) loop() {
	defer close(v.done)
	for {
		select {
		case j := <-v.jobs:
			j()
		case <-v.stop:
			for _, t := range v.timers {
				t.Stop()
			}
			return
		}
	}
}

// post queues a job for the loop; false once the engine has stopped.
func (v *vm) post(j func()) bool {
	select {
	case v.jobs <- j:
		return true
	case <-v.stop:
		return false
	}
}

// do runs fn on the loop and waits for it, interrupting it after budget.
func (v *vm) do(budget time.Duration, fn func(rt *goja.Runtime) error) error {
	errc := make(chan error, 1)
	if !v.post(func() { errc <- guardJS(func() error { return fn(v.rt) }) }) {
		return errClosed
	}
	var mu sync.Mutex
	finished, interrupted := false, false
	t := time.AfterFunc(budget, func() {
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			interrupted = true
			v.rt.Interrupt(ErrBudget)
		}
	})
	select {
	case err := <-errc:
		mu.Lock()
		finished = true
		wasInterrupted := interrupted
		mu.Unlock()
		t.Stop()
		if wasInterrupted {
			// An interrupt that arrived after the job ended must not stop
			// the next one.
			v.post(v.rt.ClearInterrupt)
		}
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			return ErrBudget
		}
		return err
	case <-v.done:
		return errClosed
	}
}

// call calls fn with args and waits for its result; a returned promise is
// waited for until it settles, ctx ends or the budget runs out.
func (v *vm) call(ctx context.Context, budget time.Duration, fn goja.Callable, args ...func(rt *goja.Runtime) goja.Value) (goja.Value, error) {
	type settled struct {
		val goja.Value
		err error
	}
	res := make(chan settled, 1)
	deadline := time.Now().Add(budget)
	err := v.do(budget, func(rt *goja.Runtime) error {
		vals := make([]goja.Value, len(args))
		for i, a := range args {
			vals[i] = a(rt)
		}
		out, err := fn(goja.Undefined(), vals...)
		if err != nil {
			return jsError(err)
		}
		p, ok := out.Export().(*goja.Promise)
		if !ok {
			res <- settled{val: out}
			return nil
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			res <- settled{val: p.Result()}
			return nil
		case goja.PromiseStateRejected:
			res <- settled{err: jsError(rejection(p.Result()))}
			return nil
		}
		then, _ := goja.AssertFunction(out.ToObject(rt).Get("then"))
		onOK := rt.ToValue(func(val goja.Value) { res <- settled{val: val} })
		onErr := rt.ToValue(func(val goja.Value) { res <- settled{err: jsError(rejection(val))} })
		_, err = then(out, onOK, onErr)
		return err
	})
	if err != nil {
		return nil, err
	}
	select {
	case s := <-res:
		return s.val, s.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Until(deadline)):
		return nil, ErrBudget
	case <-v.done:
		return nil, errClosed
	}
}

// close stops the loop and its timers; handlers still waiting get
// errClosed.
func (v *vm) close() {
	v.closed.Do(func() {
		v.rt.Interrupt(errClosed)
		close(v.stop)
		<-v.done
	})
}

// installTimers defines setTimeout, setInterval, clearTimeout,
// clearInterval and queueMicrotask; timer callbacks run on the loop.
func (v *vm) installTimers(report func(error)) {
	rt := v.rt
	schedule := func(call goja.FunctionCall, repeat bool) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(rt.NewTypeError("the timer's callback is not a function"))
		}
		ms := call.Argument(1).ToInteger()
		extra := append([]goja.Value(nil), call.Arguments[min(2, len(call.Arguments)):]...)
		v.nextTimer++
		id := v.nextTimer
		var fire func()
		fire = func() {
			if _, live := v.timers[id]; !live {
				return
			}
			if repeat {
				v.timers[id] = time.AfterFunc(time.Duration(max(ms, 1))*time.Millisecond, func() { v.post(fire) })
			} else {
				delete(v.timers, id)
			}
			if _, err := fn(goja.Undefined(), extra...); err != nil {
				report(fmt.Errorf("timer: %w", jsError(err)))
			}
		}
		v.timers[id] = time.AfterFunc(time.Duration(max(ms, 0))*time.Millisecond, func() { v.post(fire) })
		return rt.ToValue(id)
	}
	clear := func(call goja.FunctionCall) goja.Value {
		id := call.Argument(0).ToInteger()
		if t := v.timers[id]; t != nil {
			t.Stop()
			delete(v.timers, id)
		}
		return goja.Undefined()
	}
	rt.Set("setTimeout", func(call goja.FunctionCall) goja.Value { return schedule(call, false) })
	rt.Set("setInterval", func(call goja.FunctionCall) goja.Value { return schedule(call, true) })
	rt.Set("clearTimeout", clear)
	rt.Set("clearInterval", clear)
	rt.Set("queueMicrotask", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(rt.NewTypeError("queueMicrotask needs a function"))
		}
		p, resolve, _ := rt.NewPromise()
		then, _ := goja.AssertFunction(rt.ToValue(p).ToObject(rt).Get("then"))
		_, _ = then(rt.ToValue(p), rt.ToValue(func() {
			if _, err := fn(goja.Undefined()); err != nil {
				report(jsError(err))
			}
		}))
		_ = resolve(nil)
		return goja.Undefined()
	})
}

// rejection turns a rejection reason into an error.
func rejection(v goja.Value) error {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return errors.New("rejected")
	}
	if o, ok := v.(*goja.Object); ok {
		if msg := o.Get("message"); msg != nil && !goja.IsUndefined(msg) {
			return errors.New(msg.String())
		}
	}
	return errors.New(v.String())
}

// jsError shortens a goja exception to its message.
func jsError(err error) error {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return errors.New(ex.Value().String())
	}
	return err
}

// guardJS runs fn, turning a Go panic raised inside it (an engine bug or
// a host function's failure) into an error.
func guardJS(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in the extension runtime: %v", r)
		}
	}()
	return fn()
}
