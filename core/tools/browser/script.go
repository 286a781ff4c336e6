package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/headless"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// runOutput is what one run produced.
type runOutput struct {
	content     []tool.Content // display() calls and screenshots, in order, then the return value
	screenshots []Screenshot
}

// script is one run of model code against a tab. Its JavaScript runs on
// one goroutine; helpers that wait for the page in the background
// (waitForResponse, wait, setTimeout) settle their promises through jobs,
// which the run's loop executes on that goroutine.
type script struct {
	ctx  context.Context
	env  *tool.Env
	gate SaveGate
	tab  *Tab
	vm   *goja.Runtime
	out  runOutput

	jobs    chan func()    // work for the VM's goroutine
	pending int            // background operations not settled yet (VM goroutine only)
	wg      sync.WaitGroup // the background goroutines
}

// runScript runs code as the body of an async function with tab, page,
// display, assert, wait, timers and console in scope, until it settles or
// ctx ends (the JavaScript is interrupted; a page call in flight returns).
// Background work of the run has ended when it returns.
func runScript(ctx context.Context, env *tool.Env, gate SaveGate, t *Tab, code string) (runOutput, error) {
	ctx, cancel := context.WithCancel(ctx)
	s := &script{ctx: ctx, env: env, gate: gate, tab: t, vm: goja.New(), jobs: make(chan func())}
	defer s.wg.Wait()
	defer cancel()
	s.vm.SetFieldNameMapper(goja.UncapFieldNameMapper())
	s.install()
	stop := context.AfterFunc(ctx, func() { s.vm.Interrupt(ctx.Err()) })
	defer stop()
	src := "(async () => {\n" + code + "\n})()"
	prg, err := goja.Compile("", src, false)
	if err != nil {
		return s.out, syntaxError(src, err)
	}
	v, err := s.vm.RunProgram(prg)
	if err != nil {
		return s.out, s.failure(err)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return s.out, errors.New("the code did not run as an async function body")
	}
	for p.State() == goja.PromiseStatePending && s.pending > 0 {
		select {
		case job := <-s.jobs:
			job()
		case <-ctx.Done():
			return s.out, ctx.Err()
		}
	}
	switch p.State() {
	case goja.PromiseStateRejected:
		return s.out, s.failure(p.Result())
	case goja.PromiseStatePending:
		return s.out, errors.New("the code awaited a promise that nothing will settle; await tab helpers, wait(ms) or timers")
	}
	if r := p.Result(); r != nil && !goja.IsUndefined(r) {
		s.out.content = append(s.out.content, tool.Text(s.stringify(r)))
	}
	return s.out, nil
}

// syntaxError says where the code src (code in its wrapper) does not
// parse, in lines and columns of the code as the model wrote it.
func syntaxError(src string, err error) error {
	var list parser.ErrorList
	if _, perr := parser.ParseFile(nil, "", src, 0); errors.As(perr, &list) && len(list) > 0 {
		e := list[0]
		line, lines := e.Position.Line-1, strings.Count(src, "\n")-1 // the wrapper adds a line before and after
		if line > lines {
			return fmt.Errorf("SyntaxError in the code: %s at the end of the code (something is left open)", e.Message)
		}
		return fmt.Errorf("SyntaxError in the code: %s (line %d, column %d)", e.Message, max(1, line), e.Position.Column)
	}
	return fmt.Errorf("the code does not compile: %w", err)
}

// post hands job to the VM's goroutine; false when the run has ended.
// Called from background goroutines only.
func (s *script) post(job func()) bool {
	select {
	case s.jobs <- job:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// background runs work on its own goroutine and returns a promise that
// settles, on the VM's goroutine, with the value settle makes of work's
// result (settle runs there too), or rejects with work's error.
func (s *script) background(work func(ctx context.Context) (any, error), settle func(any) goja.Value) goja.Value {
	p, resolve, reject := s.vm.NewPromise()
	s.pending++
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		v, err := work(s.ctx)
		s.post(func() {
			s.pending--
			if err != nil {
				_ = reject(s.vm.NewGoError(err))
				return
			}
			if settle == nil {
				_ = resolve(v)
				return
			}
			_ = resolve(settle(v))
		})
	}()
	return s.vm.ToValue(p)
}

// installTimers puts wait(ms), setTimeout and clearTimeout in scope.
func (s *script) installTimers() {
	ms := func(v goja.Value) time.Duration {
		return time.Duration(max(0, v.ToFloat()) * float64(time.Millisecond))
	}
	s.set("wait", func(c goja.FunctionCall) goja.Value {
		d := ms(c.Argument(0))
		return s.background(func(ctx context.Context) (any, error) { return nil, ctxsleep.Sleep(ctx, d) }, nil)
	})
	cancelled := map[int64]bool{}
	var next int64
	s.set("setTimeout", func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			s.throw(errors.New("setTimeout needs a function"))
		}
		d, args := ms(c.Argument(1)), append([]goja.Value(nil), c.Arguments[min(2, len(c.Arguments)):]...)
		next++
		id := next
		s.background(func(ctx context.Context) (any, error) { return nil, ctxsleep.Sleep(ctx, d) }, func(any) goja.Value {
			if !cancelled[id] {
				_, _ = fn(goja.Undefined(), args...)
			}
			delete(cancelled, id)
			return goja.Undefined()
		})
		return s.vm.ToValue(id)
	})
	s.set("clearTimeout", func(c goja.FunctionCall) goja.Value {
		if id := c.Argument(0).ToInteger(); id > 0 && id <= next {
			cancelled[id] = true
		}
		return goja.Undefined()
	})
}

// set puts a global function in scope.
func (s *script) set(name string, fn func(goja.FunctionCall) goja.Value) {
	if err := s.vm.Set(name, fn); err != nil {
		panic(err)
	}
}

// failure turns a JavaScript exception or interrupt into the call's error.
func (s *script) failure(e any) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	switch e := e.(type) {
	case *goja.Exception:
		return errors.New(e.Value().String())
	case goja.Value:
		if obj, ok := e.(*goja.Object); ok {
			if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
				return errors.New(m.String())
			}
		}
		return errors.New(e.String())
	case error:
		return e
	}
	return fmt.Errorf("%v", e)
}

// MaxValueText bounds the text of one return or display() value, as
// headless.MaxEvalResult bounds what evaluate brings back from the page.
const MaxValueText = headless.MaxEvalResult

// stringify is a return value or display() value as text: strings as
// they are, other values as indented JSON, else String(value); text over
// MaxValueText is cut there with a note saying so.
func (s *script) stringify(v goja.Value) string {
	if str, ok := v.(goja.String); ok {
		// Cut before exporting: a 100 MB string is never copied.
		if n := str.Length(); n > MaxValueText {
			return capText(str.Substring(0, MaxValueText).String(), n)
		}
		return str.String()
	}
	if js, err := s.jsonOf(v, "  "); err == nil && js != "" {
		return capText(js, len(js))
	}
	return capText(v.String(), len(v.String()))
}

// capText cuts text (whose full length was n) to MaxValueText bytes at a
// character boundary and says what was left out.
func capText(text string, n int) string {
	if len(text) <= MaxValueText && n <= MaxValueText {
		return text
	}
	cut := min(len(text), MaxValueText)
	for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("\n[value cut at 1 MiB of its %d characters: return or display a slice or a summary instead]", n)
}

// jsonOf is JSON.stringify(v, null, indent); "" for undefined.
func (s *script) jsonOf(v goja.Value, indent string) (string, error) {
	stringify, _ := goja.AssertFunction(s.vm.Get("JSON").ToObject(s.vm).Get("stringify"))
	r, err := stringify(goja.Undefined(), v, goja.Null(), s.vm.ToValue(indent))
	if err != nil {
		return "", err
	}
	if goja.IsUndefined(r) {
		return "", nil
	}
	return r.String(), nil
}

// throw raises err in the script.
func (s *script) throw(err error) {
	if c := s.ctx.Err(); c != nil {
		err = c
	}
	err = headless.Explain(err)
	panic(s.vm.NewGoError(err))
}

// check throws err when it is not nil.
func (s *script) check(err error) {
	if err != nil {
		s.throw(err)
	}
}

// install puts the globals of a run in scope.
func (s *script) install() {
	vm := s.vm
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	tab := vm.NewObject()
	must(tab.Set("name", s.tab.Name))
	s.method(tab, "url", func(goja.FunctionCall) any { u, err := s.tab.page.URL(s.ctx); s.check(err); return u })
	s.method(tab, "title", func(goja.FunctionCall) any { t, err := s.tab.page.Title(s.ctx); s.check(err); return t })
	s.method(tab, "goto", func(c goja.FunctionCall) any {
		wait := "load"
		if o := c.Argument(1); !goja.IsUndefined(o) && !goja.IsNull(o) {
			if w := o.ToObject(vm).Get("waitUntil"); w != nil && !goja.IsUndefined(w) {
				wait = w.String()
			}
		}
		s.check(s.tab.page.Goto(s.ctx, c.Argument(0).String(), wait))
		return nil
	})
	s.method(tab, "click", func(c goja.FunctionCall) any { s.check(s.tab.page.Click(s.ctx, c.Argument(0).String())); return nil })
	s.method(tab, "type", func(c goja.FunctionCall) any {
		s.check(s.tab.page.Type(s.ctx, c.Argument(0).String(), c.Argument(1).String()))
		return nil
	})
	s.method(tab, "fill", func(c goja.FunctionCall) any {
		s.check(s.tab.page.Fill(s.ctx, c.Argument(0).String(), c.Argument(1).String()))
		return nil
	})
	s.method(tab, "press", func(c goja.FunctionCall) any {
		sel := ""
		if o := c.Argument(1); !goja.IsUndefined(o) && !goja.IsNull(o) {
			if v := o.ToObject(vm).Get("selector"); v != nil && !goja.IsUndefined(v) {
				sel = v.String()
			}
		}
		s.check(s.tab.page.Press(s.ctx, c.Argument(0).String(), sel))
		return nil
	})
	s.method(tab, "scroll", func(c goja.FunctionCall) any {
		dx, dy := s.number(c.Argument(0), "tab.scroll", "dx"), s.number(c.Argument(1), "tab.scroll", "dy")
		s.check(s.tab.page.Scroll(s.ctx, dx, dy))
		return nil
	})
	s.method(tab, "waitFor", func(c goja.FunctionCall) any {
		el, err := s.tab.page.Element(s.ctx, c.Argument(0).String())
		s.check(err)
		return s.element(el)
	})
	s.method(tab, "waitForUrl", s.waitForURL)
	s.method(tab, "evaluate", s.evaluate)
	s.method(tab, "extract", s.extract)
	s.method(tab, "screenshot", s.screenshot)
	s.installElementHelpers(tab)
	s.method(tab, "waitForResponse", s.waitForResponse)
	must(vm.Set("tab", tab))

	// page is a small puppeteer-like alias of the same helpers.
	page := vm.NewObject()
	for from, to := range map[string]string{"goto": "goto", "click": "click", "type": "type", "evaluate": "evaluate",
		"title": "title", "url": "url", "waitForSelector": "waitFor", "screenshot": "screenshot"} {
		must(page.Set(from, tab.Get(to)))
	}
	s.method(page, "content", func(goja.FunctionCall) any { h, err := s.tab.page.HTML(s.ctx); s.check(err); return h })
	s.method(page, "$", func(c goja.FunctionCall) any {
		el, err := s.tab.page.Query(s.ctx, c.Argument(0).String())
		s.check(err)
		if el == nil {
			return goja.Null()
		}
		return s.element(el)
	})
	must(vm.Set("page", page))

	must(vm.Set("display", func(c goja.FunctionCall) goja.Value { s.display(c.Argument(0)); return goja.Undefined() }))
	must(vm.Set("assert", func(c goja.FunctionCall) goja.Value {
		if !c.Argument(0).ToBoolean() {
			msg := "Assertion failed"
			if m := c.Argument(1); !goja.IsUndefined(m) {
				msg = m.String()
			}
			s.throw(errors.New(msg))
		}
		return goja.Undefined()
	}))
	s.installTimers()
	console := vm.NewObject()
	for _, name := range []string{"log", "info", "warn", "error", "debug"} {
		must(console.Set(name, func(goja.FunctionCall) goja.Value { return goja.Undefined() }))
	}
	must(vm.Set("console", console))
}

// method sets obj[name] to fn, whose Go result becomes a JS value.
func (s *script) method(obj *goja.Object, name string, fn func(goja.FunctionCall) any) {
	if err := obj.Set(name, func(c goja.FunctionCall) goja.Value { return s.vm.ToValue(fn(c)) }); err != nil {
		panic(err)
	}
}

// display adds value to the output: an {type:"image", data, mimeType}
// object as an image, anything else as text.
func (s *script) display(v goja.Value) {
	if obj, ok := v.(*goja.Object); ok {
		typ, data, mime := obj.Get("type"), obj.Get("data"), obj.Get("mimeType")
		if typ != nil && typ.String() == "image" && data != nil && mime != nil && !goja.IsUndefined(data) {
			s.out.content = append(s.out.content, &tool.ImageContent{Data: data.String(), MIMEType: mime.String()})
			return
		}
	}
	s.out.content = append(s.out.content, tool.Text(s.stringify(v)))
}

// evaluate runs a function (or an expression given as a string) in the
// page with JSON arguments and returns its JSON result as a JS value.
func (s *script) evaluate(c goja.FunctionCall) any {
	src, args := s.evalArgs(c)
	res, err := s.tab.page.Evaluate(s.ctx, src, args)
	s.check(err)
	return s.parseJSON(string(res))
}

// evalArgs are an evaluate call's function source (an expression string
// becomes a function returning it) and its arguments as JSON.
func (s *script) evalArgs(c goja.FunctionCall) (string, []json.RawMessage) {
	fn := c.Argument(0)
	src := fn.String()
	if _, ok := goja.AssertFunction(fn); !ok {
		src = "() => (" + src + ")"
	}
	args := make([]json.RawMessage, 0, len(c.Arguments))
	for _, a := range c.Arguments[min(1, len(c.Arguments)):] {
		js, err := s.jsonOf(a, "")
		s.check(err)
		if js == "" {
			js = "null"
		}
		args = append(args, json.RawMessage(js))
	}
	return src, args
}

// extract returns the page's readable content (format "markdown" or
// "text"), or null when there is none.
func (s *script) extract(c goja.FunctionCall) any {
	format := "markdown"
	if f := c.Argument(0); !goja.IsUndefined(f) {
		format = f.String()
	}
	if format != "markdown" && format != "text" {
		s.throw(fmt.Errorf("tab.extract: format %q is not one of \"markdown\", \"text\"", format))
	}
	page, err := s.tab.page.HTML(s.ctx)
	s.check(err)
	u, err := s.tab.page.URL(s.ctx)
	s.check(err)
	r, ok := headless.Extract(page, u, format)
	if !ok {
		return nil
	}
	out := map[string]any{"url": r.URL, "contentLength": r.ContentLength}
	for k, v := range map[string]string{"title": r.Title, "byline": r.Byline, "excerpt": r.Excerpt, "text": r.Text, "markdown": r.Markdown} {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// screenshot takes a PNG, saves it as omp does and, unless silent, adds
// its description and the model's copy to the output.
func (s *script) screenshot(c goja.FunctionCall) any {
	var o struct {
		Selector string `json:"selector"`
		FullPage bool   `json:"fullPage"`
		Save     string `json:"save"`
		Silent   bool   `json:"silent"`
	}
	if a := c.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
		js, err := s.jsonOf(a, "")
		s.check(err)
		s.check(json.Unmarshal([]byte(js), &o))
	}
	shot, err := s.tab.page.Screenshot(s.ctx, o.FullPage && o.Selector == "", o.Selector)
	s.check(err)
	m, err := fitForModel(shot)
	s.check(err)
	info, lines, err := saveShot(s.ctx, s.env, s.gate, o.Save, shot, m)
	s.check(err)
	s.out.screenshots = append(s.out.screenshots, info)
	if !o.Silent {
		s.out.content = append(s.out.content, tool.Text(strings.Join(lines, "\n")),
			&tool.ImageContent{Data: base64.StdEncoding.EncodeToString(m.data), MIMEType: m.mime})
	}
	return info
}

// waitForURL polls the page's address every 200 ms until it contains the
// pattern (a string) or matches it (a RegExp), within {timeout} ms or the
// run's time, and returns the address.
func (s *script) waitForURL(c goja.FunctionCall) any {
	match := s.matcher(c.Argument(0), false)
	ctx, cancel := s.helperTimeout(c.Argument(1))
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		u, err := s.tab.page.URL(ctx)
		if err == nil && match(s.vm.ToValue(u), u) {
			return u
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			if s.ctx.Err() == nil {
				s.throw(fmt.Errorf("tab.waitForUrl: the address did not match %s in time (it is %s)", c.Argument(0), u))
			}
			s.throw(s.ctx.Err())
		}
	}
}
