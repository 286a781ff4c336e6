package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/headless"
)

// helperTimeout is the context of a helper with a {timeout} option (ms):
// the run's, shortened when the option says so.
func (s *script) helperTimeout(opts goja.Value) (context.Context, context.CancelFunc) {
	var o struct {
		Timeout float64 `json:"timeout"`
	}
	s.options(opts, &o)
	if o.Timeout > 0 {
		return context.WithTimeout(s.ctx, time.Duration(o.Timeout*float64(time.Millisecond)))
	}
	return context.WithCancel(s.ctx)
}

// matcher is a pattern of waitForUrl or waitForResponse as a test of a
// URL: a string is a substring, a RegExp is tested, and (with funcs) a
// function is called with arg and its truthy result taken. The test
// runs on the VM's goroutine.
func (s *script) matcher(pat goja.Value, funcs bool) func(arg goja.Value, url string) bool {
	if obj, ok := pat.(*goja.Object); ok {
		if obj.ClassName() == "RegExp" {
			test, _ := goja.AssertFunction(obj.Get("test"))
			return func(_ goja.Value, url string) bool {
				_ = obj.Set("lastIndex", 0)
				r, err := test(obj, s.vm.ToValue(url))
				return err == nil && r.ToBoolean()
			}
		}
		if fn, ok := goja.AssertFunction(obj); ok && funcs {
			return func(arg goja.Value, _ string) bool {
				r, err := fn(goja.Undefined(), arg)
				if err != nil {
					return false
				}
				if p, ok := r.Export().(*goja.Promise); ok {
					return p.State() == goja.PromiseStateFulfilled && p.Result().ToBoolean()
				}
				return r.ToBoolean()
			}
		}
	}
	if goja.IsUndefined(pat) || goja.IsNull(pat) {
		s.throw(fmt.Errorf("a URL pattern is needed: a substring, a RegExp or (waitForResponse) a function"))
	}
	sub := pat.String()
	return func(_ goja.Value, url string) bool { return strings.Contains(url, sub) }
}

// waitForResponse returns a promise of the first response, from now on,
// whose URL the pattern matches (or for which a predicate function is
// true), within {timeout} ms or the run's time. It does not block: start
// it before the action that causes the request and await it after, or
// await both with Promise.all.
func (s *script) waitForResponse(c goja.FunctionCall) any {
	match := s.matcher(c.Argument(0), true)
	ctx, cancel := s.helperTimeout(c.Argument(1))
	w, err := s.tab.page.WatchResponses(ctx)
	if err != nil {
		cancel()
		s.throw(err)
	}
	p, resolve, reject := s.vm.NewPromise()
	s.pending++
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer w.Stop()
		defer cancel()
		for {
			select {
			case r := <-w.C:
				matched := make(chan bool, 1)
				if !s.post(func() {
					h := s.response(r)
					ok := match(h, r.URL)
					if ok {
						s.pending--
						_ = resolve(h)
					}
					matched <- ok
				}) {
					return
				}
				if <-matched {
					return
				}
			case <-ctx.Done():
				s.post(func() {
					s.pending--
					if s.ctx.Err() == nil {
						_ = reject(s.vm.NewGoError(fmt.Errorf("tab.waitForResponse: no response matched %s in time", c.Argument(0))))
					}
				})
				return
			}
		}
	}()
	return p
}

// response is the JavaScript object of a response, with the methods of
// puppeteer's HTTPResponse a model uses.
func (s *script) response(r *headless.Response) *goja.Object {
	h := s.vm.NewObject()
	s.method(h, "url", func(goja.FunctionCall) any { return r.URL })
	s.method(h, "status", func(goja.FunctionCall) any { return r.Status })
	s.method(h, "statusText", func(goja.FunctionCall) any { return r.StatusText })
	s.method(h, "ok", func(goja.FunctionCall) any { return r.Status == 0 || (r.Status >= 200 && r.Status <= 299) })
	s.method(h, "headers", func(goja.FunctionCall) any { return s.fromGo(r.Headers) })
	s.method(h, "fromCache", func(goja.FunctionCall) any { return r.FromCache })
	body := func() string {
		b, err := s.tab.page.Body(s.ctx, r)
		s.check(err)
		return string(b)
	}
	s.method(h, "text", func(goja.FunctionCall) any { return body() })
	s.method(h, "json", func(goja.FunctionCall) any { return s.parseJSON(body()) })
	return h
}
