package extensions

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

//go:embed prelude.js
var prelude string

// Time budgets of extension code.
const (
	DefaultBudget     = 30 * time.Second                   // an event handler or command
	DefaultToolBudget = config.DefaultExtensionToolTimeout // a tool's execute (tools.extensionTimeoutMs)
	loadBudget        = 10 * time.Second                   // running a module's factory
)

// LoadError is a failure of one extension: at load (Event "load"), or in
// a handler later (the event's name). The others go on.
type LoadError struct {
	Path  string `json:"extensionPath"`
	Event string `json:"event"`
	Err   string `json:"error"`
}

func (e LoadError) Error() string {
	if e.Event == "" || e.Event == "load" {
		return e.Path + ": " + e.Err
	}
	return e.Path + " (" + e.Event + "): " + e.Err
}

// ErrNotInitialized is thrown to an extension that calls a runtime action
// (sending messages, changing the model, …) while it is being loaded.
var ErrNotInitialized = errors.New("ExtensionRuntimeNotInitializedError: runtime actions are not available while extensions load; call them from an event handler, a command or a tool")

// Options configure Load.
type Options struct {
	Budget     time.Duration           // per handler; DefaultBudget when 0
	ToolBudget time.Duration           // per tool call (tools.extensionTimeoutMs); DefaultToolBudget when 0
	Log        func(level, msg string) // console output of the extensions; nil drops it
	OnError    func(LoadError)         // failures after load (handlers, timers); nil drops them
	Cwd        string                  // the working directory custom tools see before the session exists
	Env        []string                // KEY=VALUE environment of process.env and child processes; the process's when nil
	Written    func(abs string)        // told of every path an extension's fs wrote, created or removed (caches to invalidate); may be nil
	AgentDir   string                  // gopi's agent directory, for getAgentDir(); from Env's HOME and PI_CODING_AGENT_DIR when ""
	// BundleCacheDir keeps bundled extensions on disk by the content of
	// their inputs, for the next process (bundlecache.go); "" keeps none.
	BundleCacheDir string
	ProjectTrusted bool // ctx.isProjectTrusted(): the project's own files may run and configure
}

// waitIdle returns once the host is idle (ctx.waitForIdle), or the
// runtime closed. The host has no wait of its own, so it looks every
// 10 ms, as omp's extensions do themselves.
func (r *Runtime) waitIdle(h Host) {
	for !h.IsIdle() && !r.closed.Load() {
		time.Sleep(10 * time.Millisecond)
	}
}

// Runtime holds the loaded extensions, all in one JavaScript engine.
type Runtime struct {
	vm     *vm
	opts   Options
	errs   []LoadError // load failures, collected before Load returns the runtime
	host   atomic.Pointer[hostRef]
	closed atomic.Bool
	node   *nodeHost // the built-in modules (node.go)
	// helperVals are the esbuild helper sets made in this engine
	// (helpers.go), engine goroutine only.
	helperVals map[int]goja.Value

	mu    sync.Mutex
	exts  []*ext      // the loaded extensions, in load order
	warns []LoadError // what the extensions got wrong without failing (Warnings)

	observeOnce  sync.Once
	obsMu        sync.Mutex
	obsClosed    bool
	observed     chan agent.Event
	observerDone chan struct{}
}

type hostRef struct{ h Host }

// ext is one loaded extension.
type ext struct {
	entry     Entry
	label     string
	handlers  map[string][]goja.Callable
	tools     []*jsTool
	commands  []*Command
	shortcuts []*Shortcut
	providers []Provider
	renderers []*Renderer
	// ctxBase is the shared prototype of this extension's handler ctx
	// objects, for host ctxHost (engine goroutine only; see ctxObject).
	ctxBase *goja.Object
	ctxHost Host
	flags   []Flag
}

// Flag is a command-line flag an extension registered (shown, not parsed
// yet).
type Flag struct {
	Name, Description string
}

// Load bundles and runs each module's factory. Failures are collected per
// module (Errors) and never stop the others; a Runtime is always
// returned.
func Load(ctx context.Context, entries []Entry, opts Options) *Runtime {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	if opts.ToolBudget <= 0 {
		opts.ToolBudget = DefaultToolBudget
	}
	r := &Runtime{vm: newVM(), opts: opts}
	// Bundling and compiling run beside the engine's set-up and beside
	// the running of the modules already compiled.
	progs := compileAll(entries, opts.BundleCacheDir)
	err := r.vm.do(loadBudget, func(rt *goja.Runtime) error {
		rt.Set("__gopiLog", func(level, msg string) {
			if r.opts.Log != nil {
				r.opts.Log(level, msg)
			}
		})
		r.vm.installTimers(func(err error) { r.report(LoadError{Path: "(timer)", Event: "timer", Err: err.Error()}) })
		prog, err := ownScript("gopi:prelude.js", prelude)
		if err != nil {
			return err
		}
		if _, err := rt.RunProgram(prog); err != nil {
			return err
		}
		rt.Set("__gopiHelpers", func(i int) goja.Value { return r.helpers(rt, i) })
		r.installNode(rt)
		r.installHostHelpers(rt)
		return nil
	})
	if err != nil {
		r.errs = append(r.errs, LoadError{Path: "(runtime)", Event: "load", Err: "cannot start the extension runtime: " + err.Error()})
		return r
	}
	for i, e := range entries {
		if ctx.Err() != nil {
			break
		}
		if err := r.load(e, <-progs[i]); err != nil {
			r.errs = append(r.errs, LoadError{Path: e.Path, Event: "load", Err: err.Error()})
		}
	}
	return r
}

// compiledEntry is one module bundled and compiled, or why not.
type compiledEntry struct {
	prog *goja.Program
	err  error
}

// compileAll bundles the entries (one esbuild build, prebundle) and
// compiles their scripts, as many at once as there are processors; the
// i-th channel receives the i-th entry's program. goja's programs belong
// to no engine, so they compile anywhere. The goroutines end on their own
// once their entry is done (a load stopped early does not wait for them).
func compileAll(entries []Entry, diskDir string) []chan compiledEntry {
	out := make([]chan compiledEntry, len(entries))
	for i := range out {
		out[i] = make(chan compiledEntry, 1)
	}
	go func() {
		paths := make([]string, len(entries))
		for i, e := range entries {
			paths[i] = e.Path
		}
		ready := prebundle(paths, diskDir)
		slots := make(chan struct{}, runtime.GOMAXPROCS(0))
		for i, e := range entries {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots }()
				out[i] <- compileEntry(e.Path, diskDir, ready[e.Path])
			}()
		}
	}()
	return out
}

// compileEntry bundles (unless code is the current script already) and
// compiles one module.
func compileEntry(path, diskDir, code string) compiledEntry {
	if code == "" {
		var err error
		if code, err = bundle(path, diskDir); err != nil {
			return compiledEntry{err: err}
		}
	}
	prog, err := goja.Compile(path, shareHelpers(withBuiltinESM(code))+"\n;"+bundleGlobal, false)
	if err != nil {
		return compiledEntry{err: fmt.Errorf("cannot compile: %w", err)}
	}
	return compiledEntry{prog: prog}
}

// load runs one compiled module's factory with a fresh pi object.
func (r *Runtime) load(e Entry, c compiledEntry) error {
	if c.err != nil {
		return c.err
	}
	x := &ext{entry: e, handlers: map[string][]goja.Callable{}}
	var custom goja.Callable
	err := r.vm.do(loadBudget, func(rt *goja.Runtime) error {
		mod, err := rt.RunProgram(c.prog)
		if err != nil {
			return jsError(err)
		}
		factory, ok := goja.AssertFunction(mod)
		if !ok && mod != nil && !goja.IsUndefined(mod) {
			factory, ok = goja.AssertFunction(mod.ToObject(rt).Get("default"))
		}
		if !ok {
			return errors.New("the module does not export a function: export default function (pi) { … }")
		}
		if e.CustomTool {
			custom = factory
			return nil
		}
		out, err := factory(goja.Undefined(), r.piObject(rt, x))
		if err != nil {
			return jsError(err)
		}
		if p, isPromise := out.Export().(*goja.Promise); isPromise && p.State() == goja.PromiseStateRejected {
			return jsError(rejection(p.Result()))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if custom != nil {
		if err := r.loadCustomTools(x, custom); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.exts = append(r.exts, x)
	r.mu.Unlock()
	return nil
}

// Errors returns the load failures.
func (r *Runtime) Errors() []LoadError { return append([]LoadError(nil), r.errs...) }

// Warnings returns what the extensions got wrong without failing: a
// tool whose parameters are not a schema (it is offered without
// parameters).
func (r *Runtime) Warnings() []LoadError {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]LoadError(nil), r.warns...)
}

// warn records a warning.
func (r *Runtime) warn(e LoadError) {
	r.mu.Lock()
	r.warns = append(r.warns, e)
	r.mu.Unlock()
}

// Loaded returns the paths of the extensions that loaded, in order.
func (r *Runtime) Loaded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, x := range r.exts {
		out = append(out, x.entry.Path)
	}
	return out
}

// Bind gives the extensions their host: runtime actions work from now on,
// and session_start is emitted.
func (r *Runtime) Bind(h Host) {
	r.host.Store(&hostRef{h})
	r.Emit(context.Background(), "session_start", map[string]any{})
	r.onSession("start")
}

// Close emits session_shutdown, then stops the engine (timers included).
func (r *Runtime) Close() {
	if r.closed.Swap(true) {
		return
	}
	r.stopObserver()
	r.Emit(context.Background(), "session_shutdown", map[string]any{})
	r.onSession("shutdown")
	if r.node != nil {
		r.node.procs.close() // no child process outlives the session
	}
	r.vm.close()
}

func (r *Runtime) hostOrNil() Host {
	if ref := r.host.Load(); ref != nil {
		return ref.h
	}
	return nil
}

// report passes a failure after load to Options.OnError.
func (r *Runtime) report(e LoadError) {
	if r.opts.OnError != nil {
		r.opts.OnError(e)
	}
}

// handlers returns the handlers of event, per extension, in load order.
func (r *Runtime) handlers(event string) []extHandler {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []extHandler
	for _, x := range r.exts {
		for _, h := range x.handlers[event] {
			out = append(out, extHandler{x, h})
		}
	}
	return out
}

type extHandler struct {
	x  *ext
	fn goja.Callable
}

// Emit calls every handler of event with payload (JSON-encodable) and a
// context, one after the other; failures are reported, results dropped.
func (r *Runtime) Emit(ctx context.Context, event string, payload any) {
	for _, h := range r.handlers(event) {
		if _, err := r.callHandler(ctx, h, event, payload); err != nil {
			r.report(LoadError{Path: h.x.entry.Path, Event: event, Err: err.Error()})
		}
	}
}

// callHandler calls one handler with the event (its payload plus type)
// and the handler context, and returns what it returned as JSON ("" when
// nothing).
func (r *Runtime) callHandler(ctx context.Context, h extHandler, event string, payload any) (json.RawMessage, error) {
	return r.callHandlerWith(ctx, h, event, payload, nil)
}

// callHandlerWith is callHandler with decorate, when not nil, adding
// members to the event object on the engine's goroutine.
func (r *Runtime) callHandlerWith(ctx context.Context, h extHandler, event string, payload any, decorate func(rt *goja.Runtime, ev *goja.Object)) (json.RawMessage, error) {
	ev, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("cannot encode the %s event: %w", event, err)
	}
	val, err := r.vm.call(ctx, r.opts.Budget, h.fn,
		func(rt *goja.Runtime) goja.Value {
			v := withType(rt, ev, event)
			if o, ok := v.(*goja.Object); ok && decorate != nil {
				decorate(rt, o)
			}
			return v
		},
		func(rt *goja.Runtime) goja.Value { return r.ctxObject(rt, h.x) })
	if err != nil {
		return nil, err
	}
	return r.exportJSON(val)
}

// withType parses the event JSON and sets its type.
func withType(rt *goja.Runtime, ev []byte, event string) goja.Value {
	v, err := jsonParse(rt, ev)
	if err != nil {
		return goja.Undefined()
	}
	if o, ok := v.(*goja.Object); ok {
		o.Set("type", event)
	}
	return v
}

// jsonParse turns JSON into a JavaScript value.
func jsonParse(rt *goja.Runtime, b []byte) (goja.Value, error) {
	parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	return parse(goja.Undefined(), rt.ToValue(string(b)))
}

// exportJSON encodes a handler's result as JSON on the loop; undefined
// and null give nil.
func (r *Runtime) exportJSON(v goja.Value) (json.RawMessage, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	var out json.RawMessage
	err := r.vm.do(r.opts.Budget, func(rt *goja.Runtime) error {
		stringify, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
		s, err := stringify(goja.Undefined(), v)
		if err != nil {
			return jsError(err)
		}
		if !goja.IsUndefined(s) {
			out = json.RawMessage(s.String())
		}
		return nil
	})
	return out, err
}

// Tools returns the tools the extensions registered.
func (r *Runtime) Tools() []tool.Tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []tool.Tool
	for _, x := range r.exts {
		for _, t := range x.tools {
			out = append(out, t)
		}
	}
	return out
}

// Providers returns the model providers the extensions declared, in load
// order.
func (r *Runtime) Providers() []Provider {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Provider
	for _, x := range r.exts {
		out = append(out, x.providers...)
	}
	return out
}

// Shortcuts returns the key bindings the extensions registered.
func (r *Runtime) Shortcuts() []*Shortcut {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*Shortcut
	for _, x := range r.exts {
		out = append(out, x.shortcuts...)
	}
	return out
}

// addCommand registers c for x; a command x registered before under the
// same name is replaced, as omp does (extensions re-register theirs when
// what they offer changes).
func (r *Runtime) addCommand(x *ext, c *Command) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, old := range x.commands {
		if old.Name == c.Name {
			x.commands[i] = c
			return
		}
	}
	x.commands = append(x.commands, c)
}

// Commands returns the slash commands the extensions registered.
func (r *Runtime) Commands() []*Command {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*Command
	for _, x := range r.exts {
		out = append(out, x.commands...)
	}
	return out
}
