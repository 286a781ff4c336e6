package extensions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// Host is what extensions act on once the session exists (Bind). Its
// methods may block: the runtime calls them off the engine's goroutine
// and hands the extension a promise.
type Host interface {
	Cwd() string
	UI() tool.UI // nil when nobody can answer a dialog
	SendMessage(ctx context.Context, customType, content string, display bool, details json.RawMessage, deliverAs string, triggerTurn bool) error
	SendUserMessage(ctx context.Context, text, deliverAs string) error
	AppendEntry(customType string, data json.RawMessage) error
	SessionName() string
	SessionID() string
	SetSessionName(name string) error
	ActiveTools() []string
	AllTools() []string
	SetActiveTools(names []string) error
	SetModel(provider, id string) error
	ThinkingLevel() string
	SetThinkingLevel(level string) error
	IsIdle() bool
	HasPendingMessages() bool
	Abort()
	SystemPrompt() string
	ContextUsage() (tokens, window int)

	// hooks-v2: the session's state and entries.
	Model() *ai.Model                        // the current model (nil when none)
	FindModel(provider, id string) *ai.Model // nil when unknown
	AvailableModels() []*ai.Model            // the models with credentials
	APIKey(provider string) string           // the provider's key ("" when none)
	Branch() []*session.Entry                // the current branch, root first
	AllEntries() []*session.Entry            // every entry, in file order
	LeafID() string                          // "" when the leaf is null
	SessionFile() string                     // "" for a session in memory
	SaveEntry(typ string, fields json.RawMessage) error
	RebuildContext() error

	// PushPendingAction queues a custom tool's preview for the resolve
	// tool; reject may be nil.
	PushPendingAction(label string, apply, reject func(ctx context.Context, reason string) (*tool.Result, error)) error
}

// Provider is a model provider an extension declared.
type Provider struct {
	Name      string
	Config    json.RawMessage // one models.yml provider entry, as JSON
	Extension string          // the extension's path
}

// Command is a slash command an extension registered.
type Command struct {
	Name        string
	Description string
	Extension   string // the extension's path
	rt          *Runtime
	x           *ext
	fn          goja.Callable
	v2          bool // registered with pi.command: handler(ctx)
}

// Run runs the command with its arguments (the text after its name).
func (c *Command) Run(ctx context.Context, args string) error {
	if c.v2 {
		return c.runV2(ctx, args)
	}
	_, err := c.rt.vm.call(ctx, c.rt.opts.Budget, c.fn,
		func(rt *goja.Runtime) goja.Value { return rt.ToValue(args) },
		func(rt *goja.Runtime) goja.Value { return c.rt.ctxObject(rt, c.x) })
	return err
}

// piObject builds the pi object an extension's factory receives.
func (r *Runtime) piObject(rt *goja.Runtime, x *ext) *goja.Object {
	pi := rt.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) { _ = pi.Set(name, fn) }
	set("on", func(c goja.FunctionCall) goja.Value {
		event := c.Argument(0).String()
		fn, ok := goja.AssertFunction(c.Argument(1))
		if !ok {
			panic(rt.NewTypeError("pi.on(" + event + "): the handler is not a function"))
		}
		x.handlers[event] = append(x.handlers[event], fn)
		return goja.Undefined()
	})
	set("registerTool", func(c goja.FunctionCall) goja.Value {
		t, err := r.newTool(rt, x, c.Argument(0).ToObject(rt))
		if err != nil {
			panic(rt.NewTypeError("pi.registerTool: " + err.Error()))
		}
		for _, old := range x.tools {
			if old.def.Name == t.def.Name {
				panic(rt.NewTypeError("pi.registerTool: a tool named " + t.def.Name + " is already registered"))
			}
		}
		x.tools = append(x.tools, t)
		return goja.Undefined()
	})
	set("registerCommand", func(c goja.FunctionCall) goja.Value {
		name := strings.TrimPrefix(c.Argument(0).String(), "/")
		spec := c.Argument(1).ToObject(rt)
		fn, ok := goja.AssertFunction(spec.Get("handler"))
		if !ok {
			panic(rt.NewTypeError("pi.registerCommand(" + name + "): handler is not a function"))
		}
		desc := ""
		if d := spec.Get("description"); d != nil && !goja.IsUndefined(d) {
			desc = d.String()
		}
		r.addCommand(x, &Command{Name: name, Description: desc, Extension: x.entry.Path, rt: r, x: x, fn: fn})
		return goja.Undefined()
	})
	// pi.command (hooks-v2): the handler gets one ctx with args, argsRaw,
	// signal, setModel and setThinkingLevel; a {status} answer is shown.
	set("command", func(c goja.FunctionCall) goja.Value {
		name := strings.TrimPrefix(c.Argument(0).String(), "/")
		spec := c.Argument(1).ToObject(rt)
		fn, ok := goja.AssertFunction(spec.Get("handler"))
		if !ok {
			panic(rt.NewTypeError("pi.command(" + name + "): handler is not a function"))
		}
		r.addCommand(x, &Command{Name: name, Description: optString(spec.Get("description")), Extension: x.entry.Path, rt: r, x: x, fn: fn, v2: true})
		return goja.Undefined()
	})
	set("registerFlag", func(c goja.FunctionCall) goja.Value {
		f := Flag{Name: c.Argument(0).String()}
		if o, ok := c.Argument(1).(*goja.Object); ok {
			if d := o.Get("description"); d != nil && !goja.IsUndefined(d) {
				f.Description = d.String()
			}
		}
		x.flags = append(x.flags, f)
		return goja.Undefined()
	})
	// pi.registerShortcut(key, { description, handler }): a key binding of
	// the interactive mode; gopi's own keys are refused.
	set("registerShortcut", func(c goja.FunctionCall) goja.Value {
		key := NormalizeShortcut(c.Argument(0).String())
		if ReservedShortcut(key) {
			panic(rt.NewTypeError("pi.registerShortcut(" + key + "): the key is reserved by gopi; pick another"))
		}
		spec, _ := c.Argument(1).(*goja.Object)
		var fn goja.Callable
		desc := ""
		if spec != nil {
			fn, _ = goja.AssertFunction(spec.Get("handler"))
			desc = optString(spec.Get("description"))
		}
		if fn == nil {
			panic(rt.NewTypeError("pi.registerShortcut(" + key + "): handler is not a function"))
		}
		x.shortcuts = append(x.shortcuts, &Shortcut{Key: key, Description: desc, Extension: x.entry.Path, rt: r, x: x, fn: fn})
		return goja.Undefined()
	})
	// pi.registerProvider(name, config): a provider declared like an entry
	// of models.yml (baseUrl, api, apiKey, headers, models). Custom stream
	// functions and OAuth flows are not supported.
	set("registerProvider", func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		cfg, err := json.Marshal(c.Argument(1).Export())
		if err != nil {
			panic(rt.NewTypeError("pi.registerProvider(" + name + "): the configuration must be plain data (baseUrl, api, apiKey, headers, models); functions such as streamSimple are not supported by gopi"))
		}
		x.providers = append(x.providers, Provider{Name: name, Config: cfg, Extension: x.entry.Path})
		return goja.Undefined()
	})
	set("registerMessageRenderer", func(c goja.FunctionCall) goja.Value {
		customType := c.Argument(0).String()
		fn, ok := goja.AssertFunction(c.Argument(1))
		if !ok {
			panic(rt.NewTypeError("pi.registerMessageRenderer(" + customType + "): the renderer is not a function"))
		}
		x.renderers = append(x.renderers, &Renderer{CustomType: customType, Extension: x.entry.Path, rt: r, fn: fn})
		return goja.Undefined()
	})
	set("setLabel", func(c goja.FunctionCall) goja.Value { x.label = c.Argument(0).String(); return goja.Undefined() })
	_ = pi.Set("zod", rt.Get("__gopiZodModule"))
	_ = pi.Set("typebox", rt.Get("__gopiTypebox"))
	_ = pi.Set("logger", rt.Get("console"))
	pkg := rt.NewObject()
	_ = pkg.Set("z", rt.Get("__gopiZod"))
	_ = pkg.Set("StringEnum", rt.Get("__gopiStringEnum"))
	_ = pkg.Set("logger", rt.Get("console"))
	_ = pi.Set("pi", pkg)
	_ = pi.Set("events", r.eventBus(rt))

	// Runtime actions: they need the session (after Bind).
	// The arguments are copied while the call runs: fn works on another
	// goroutine, where goja values must not be touched (the engine
	// reuses a call's argument list).
	action := func(name string, fn func(h Host, a callArgs) (any, error)) {
		set(name, func(c goja.FunctionCall) goja.Value {
			h := r.hostOrNil()
			if h == nil {
				panic(rt.NewGoError(fmt.Errorf("pi.%s(): %w", name, ErrNotInitialized)))
			}
			a := copyArgs(c)
			return r.async(rt, func() (any, error) { return fn(h, a) })
		})
	}
	action("sendMessage", func(h Host, a callArgs) (any, error) {
		var msg struct {
			CustomType string          `json:"customType"`
			Content    any             `json:"content"`
			Display    *bool           `json:"display"`
			Details    json.RawMessage `json:"details"`
		}
		var opts struct {
			DeliverAs   string `json:"deliverAs"`
			TriggerTurn bool   `json:"triggerTurn"`
		}
		if err := a.Decode(0, &msg); err != nil {
			return nil, err
		}
		_ = a.Decode(1, &opts)
		display := msg.Display == nil || *msg.Display
		return nil, h.SendMessage(context.Background(), msg.CustomType, contentText(msg.Content), display, msg.Details, opts.DeliverAs, opts.TriggerTurn)
	})
	action("sendUserMessage", func(h Host, a callArgs) (any, error) {
		var content any
		_ = a.Decode(0, &content)
		var opts struct {
			DeliverAs string `json:"deliverAs"`
		}
		_ = a.Decode(1, &opts)
		return nil, h.SendUserMessage(context.Background(), contentText(content), opts.DeliverAs)
	})
	action("appendEntry", func(h Host, a callArgs) (any, error) {
		data, err := json.Marshal(a.Export(1))
		if err != nil {
			return nil, err
		}
		return nil, h.AppendEntry(a.String(0), data)
	})
	action("getSessionName", func(h Host, _ callArgs) (any, error) { return h.SessionName(), nil })
	action("setSessionName", func(h Host, a callArgs) (any, error) { return nil, h.SetSessionName(a.String(0)) })
	action("getActiveTools", func(h Host, _ callArgs) (any, error) { return h.ActiveTools(), nil })
	action("getAllTools", func(h Host, _ callArgs) (any, error) { return h.AllTools(), nil })
	action("setActiveTools", func(h Host, a callArgs) (any, error) {
		var names []string
		if err := a.Decode(0, &names); err != nil {
			return nil, err
		}
		return nil, h.SetActiveTools(names)
	})
	action("setModel", func(h Host, a callArgs) (any, error) {
		var m struct {
			Provider string `json:"provider"`
			ID       string `json:"id"`
		}
		if err := a.Decode(0, &m); err != nil || m.ID == "" {
			if s := a.String(0); strings.Contains(s, "/") {
				m.Provider, m.ID, _ = strings.Cut(s, "/")
			}
		}
		// Resolves true once switched, as omp's does (callers test it).
		if err := h.SetModel(m.Provider, m.ID); err != nil {
			return nil, err
		}
		return true, nil
	})
	set("getCommands", func(goja.FunctionCall) goja.Value {
		var out []map[string]any
		for _, c := range r.Commands() {
			out = append(out, map[string]any{"name": c.Name, "description": c.Description, "source": "extension", "path": c.Extension})
		}
		return rt.ToValue(out)
	})
	action("getThinkingLevel", func(h Host, _ callArgs) (any, error) { return h.ThinkingLevel(), nil })
	action("setThinkingLevel", func(h Host, a callArgs) (any, error) { return nil, h.SetThinkingLevel(a.String(0)) })
	return pi
}

// ctxObject builds the context a handler, command or tool receives: a
// fresh object per call (model and entries are read at most once in it)
// whose prototype holds the members that do not change between calls,
// built once per extension and session (a handler call is on the
// tool-call path: rebuilding those each time cost ~60 µs).
func (r *Runtime) ctxObject(rt *goja.Runtime, x *ext) *goja.Object {
	ctx := rt.NewObject()
	h := r.hostOrNil()
	if h == nil {
		return ctx
	}
	if x.ctxBase == nil || x.ctxHost != h {
		x.ctxBase, x.ctxHost = r.ctxBase(rt, h), h
	}
	_ = ctx.SetPrototype(x.ctxBase)
	lazyJSON(rt, ctx, "model", func() ([]byte, error) { return json.Marshal(h.Model()) })
	lazyJSON(rt, ctx, "entries", func() ([]byte, error) { return entriesJSON(h.Branch()) })
	return ctx
}

// ctxBase is the shared part of every ctx: methods, and accessors for
// what changes during a session (the UI, the session file).
func (r *Runtime) ctxBase(rt *goja.Runtime, h Host) *goja.Object {
	ctx := rt.NewObject()
	getter := func(name string, fn func() goja.Value) {
		_ = ctx.DefineAccessorProperty(name, rt.ToValue(func(goja.FunctionCall) goja.Value { return fn() }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	_ = ctx.Set("cwd", h.Cwd())
	getter("hasUI", func() goja.Value { return rt.ToValue(h.UI() != nil) })
	getter("ui", func() goja.Value { return r.uiObject(rt, h.UI()) })
	_ = ctx.Set("isIdle", func() bool { return h.IsIdle() })
	_ = ctx.Set("hasPendingMessages", func() bool { return h.HasPendingMessages() })
	_ = ctx.Set("abort", func() { go h.Abort() })
	_ = ctx.Set("getSystemPrompt", func() string { return h.SystemPrompt() })
	_ = ctx.Set("isProjectTrusted", func() bool { return r.opts.ProjectTrusted })
	_ = ctx.Set("waitForIdle", func(goja.FunctionCall) goja.Value {
		return r.async(rt, func() (any, error) { r.waitIdle(h); return nil, nil })
	})
	_ = ctx.Set("modelRegistry", r.modelRegistry(rt, h))
	_ = ctx.Set("scopedModels", rt.NewArray())
	_ = ctx.Set("getContextUsage", func() map[string]any {
		tokens, window := h.ContextUsage()
		pct := 0.0
		if window > 0 {
			pct = float64(tokens) / float64(window) * 100
		}
		return map[string]any{"tokens": tokens, "contextWindow": window, "percent": pct}
	})
	r.hooksV2Context(rt, ctx, h)
	return ctx
}

// uiObject is ctx.ui: dialogs return promises; without a UI they answer
// with their defaults (undefined, false) as print mode does.
func (r *Runtime) uiObject(rt *goja.Runtime, ui tool.UI) *goja.Object {
	o := rt.NewObject()
	dialog := func(name string, fn func(ctx context.Context, a callArgs) (any, error)) {
		_ = o.Set(name, func(c goja.FunctionCall) goja.Value {
			if ui == nil {
				return r.async(rt, func() (any, error) { return nil, nil })
			}
			a := copyArgs(c)
			return r.async(rt, func() (any, error) {
				v, err := fn(context.Background(), a)
				if err != nil {
					return nil, nil // dismissed or timed out: undefined, as omp answers
				}
				return v, nil
			})
		})
	}
	dialog("select", func(ctx context.Context, a callArgs) (any, error) {
		var opts []string
		_ = a.Decode(1, &opts)
		return ui.Select(ctx, a.String(0), opts, 0)
	})
	dialog("confirm", func(ctx context.Context, a callArgs) (any, error) {
		return ui.Confirm(ctx, a.String(0), a.Opt(1), 0)
	})
	dialog("input", func(ctx context.Context, a callArgs) (any, error) {
		return ui.Input(ctx, a.String(0), a.Opt(1), 0)
	})
	dialog("editor", func(ctx context.Context, a callArgs) (any, error) {
		return ui.Editor(ctx, a.String(0), a.Opt(1), 0)
	})
	fire := func(name string, fn func(c goja.FunctionCall)) {
		_ = o.Set(name, func(c goja.FunctionCall) goja.Value {
			if ui != nil {
				fn(c)
			}
			return goja.Undefined()
		})
	}
	fire("notify", func(c goja.FunctionCall) { ui.Notify(c.Argument(0).String(), optString(c.Argument(1))) })
	fire("setStatus", func(c goja.FunctionCall) { ui.SetStatus(c.Argument(0).String(), optString(c.Argument(1))) })
	fire("setWidget", func(c goja.FunctionCall) {
		var lines []string
		_ = exportTo(c.Argument(1), &lines)
		ui.SetWidget(c.Argument(0).String(), lines)
	})
	fire("setTitle", func(c goja.FunctionCall) { ui.SetTitle(c.Argument(0).String()) })
	fire("setEditorText", func(c goja.FunctionCall) { ui.SetEditorText(c.Argument(0).String()) })
	// What gopi draws itself (footer, header, editor, working message)
	// an extension cannot replace: accepted and ignored, as omp's modes
	// without them do.
	for _, name := range []string{"setFooter", "setHeader", "setEditorComponent", "setWorkingMessage"} {
		_ = o.Set(name, func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	}
	_ = o.Set("onTerminalInput", func(goja.FunctionCall) goja.Value { return rt.ToValue(func() {}) })
	themeMembers(rt, o, ui)
	return o
}

// async runs fn off the engine's goroutine and returns a promise settled
// with its outcome on the engine's goroutine.
func (r *Runtime) async(rt *goja.Runtime, fn func() (any, error)) goja.Value {
	p, resolve, reject := rt.NewPromise()
	go func() {
		v, err := fn()
		r.vm.post(func() {
			if err != nil {
				_ = reject(rt.NewGoError(err))
				return
			}
			_ = resolve(v)
		})
	}()
	return rt.ToValue(p)
}

// eventBus is pi.events: extensions talk to each other through it.
func (r *Runtime) eventBus(rt *goja.Runtime) *goja.Object {
	bus := rt.Get("__gopiBus")
	if bus == nil || goja.IsUndefined(bus) {
		listeners := map[string][]goja.Callable{}
		o := rt.NewObject()
		_ = o.Set("on", func(name string, fn goja.Callable) { listeners[name] = append(listeners[name], fn) })
		_ = o.Set("emit", func(name string, data goja.Value) {
			for _, fn := range listeners[name] {
				if _, err := fn(goja.Undefined(), data); err != nil {
					r.report(LoadError{Path: "(events)", Event: name, Err: jsError(err).Error()})
				}
			}
		})
		rt.Set("__gopiBus", o)
		return o
	}
	return bus.ToObject(rt)
}

// exportTo converts a JavaScript value into a Go value through JSON.
func exportTo(v goja.Value, out any) error {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	b, err := json.Marshal(v.Export())
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func optString(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

// contentText reads message content: a string, or text blocks.
func contentText(c any) string {
	switch c := c.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, blk := range c {
			if m, ok := blk.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	return ""
}

// callArgs are a call's arguments copied off the engine: each as its
// exported Go value and its JavaScript string form.
type callArgs struct {
	vals []any
	strs []string
}

// copyArgs copies c's arguments (on the engine's goroutine).
func copyArgs(c goja.FunctionCall) callArgs {
	a := callArgs{vals: make([]any, len(c.Arguments)), strs: make([]string, len(c.Arguments))}
	for i, v := range c.Arguments {
		if v != nil {
			a.vals[i], a.strs[i] = v.Export(), v.String()
		}
	}
	return a
}

// String is argument i as JavaScript's String() gives it ("undefined"
// when missing).
func (a callArgs) String(i int) string {
	if i >= len(a.strs) {
		return "undefined"
	}
	return a.strs[i]
}

// Export is argument i as a Go value (nil when missing).
func (a callArgs) Export(i int) any {
	if i >= len(a.vals) {
		return nil
	}
	return a.vals[i]
}

// Decode converts argument i into out through JSON; a missing, undefined
// or null argument leaves out as it is.
func (a callArgs) Decode(i int, out any) error {
	v := a.Export(i)
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// Opt is argument i as a string, "" when missing, undefined or null.
func (a callArgs) Opt(i int) string {
	if a.Export(i) == nil {
		return ""
	}
	return a.String(i)
}
