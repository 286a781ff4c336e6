package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// jsTool is a tool an extension registered: the model calls it like a
// built-in; execute runs in the extension's engine.
type jsTool struct {
	r       *Runtime
	x       *ext
	def     tool.Definition
	execute goja.Callable
	custom  bool // a custom tool: execute(toolCallId, params, onUpdate, ctx, signal)
	// renderCall and renderResult draw the tool in the interactive mode
	// (nil when the definition has none).
	renderCall, renderResult goja.Callable
}

var toolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`) })

// newTool reads a registerTool definition.
func (r *Runtime) newTool(rt *goja.Runtime, x *ext, o *goja.Object) (*jsTool, error) {
	str := func(k string) string {
		if v := o.Get(k); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
			return v.String()
		}
		return ""
	}
	t := &jsTool{r: r, x: x, def: tool.Definition{Name: str("name"), Label: str("label"), Description: str("description")}}
	// readOnly: true (gopi's own field) declares that the tool changes
	// nothing, so permission gates pass it unless the user names it.
	if v := o.Get("readOnly"); v != nil {
		t.def.ReadOnly, _ = v.Export().(bool)
	}
	if !toolName().MatchString(t.def.Name) {
		return nil, fmt.Errorf("the tool name %q must be letters, digits, _ or - (starting with a letter, at most 64)", t.def.Name)
	}
	if t.def.Description == "" {
		return nil, fmt.Errorf("the tool %s has no description", t.def.Name)
	}
	fn, ok := goja.AssertFunction(o.Get("execute"))
	if !ok {
		return nil, fmt.Errorf("the tool %s has no execute function", t.def.Name)
	}
	t.execute = fn
	t.renderCall, _ = goja.AssertFunction(o.Get("renderCall"))
	t.renderResult, _ = goja.AssertFunction(o.Get("renderResult"))
	schemaJSON, _ := goja.AssertFunction(rt.Get("__gopiSchemaJSON"))
	params := o.Get("parameters")
	s := &tool.Schema{Type: "object"}
	if what := notASchema(params); what != "" {
		r.warn(LoadError{Path: x.entry.Path, Event: "registerTool", Err: fmt.Sprintf(
			"the parameters of the tool %s are %s, not a JSON Schema object; the tool is offered without parameters (write them as { type: \"object\", properties: { … } }, or with pi.zod or pi.typebox)",
			t.def.Name, what)})
	} else if params != nil && !goja.IsUndefined(params) {
		js, err := schemaJSON(goja.Undefined(), params)
		if err != nil {
			return nil, fmt.Errorf("the parameters of %s: %w", t.def.Name, jsError(err))
		}
		if err := json.Unmarshal([]byte(js.String()), s); err != nil {
			return nil, fmt.Errorf("the parameters of %s are not a JSON Schema: %w", t.def.Name, err)
		}
		if s.Type == "" {
			s.Type = "object"
		}
		if s.Type != "object" {
			return nil, fmt.Errorf("the parameters of %s must be an object schema, not %q", t.def.Name, s.Type)
		}
	}
	t.def.Parameters = s
	return t, nil
}

// notASchema describes parameters that cannot be a schema (null, a
// string, a number, a boolean, an array, a function); "" for an object
// or undefined (a tool without parameters).
func notASchema(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return ""
	case goja.IsNull(v):
		return "null"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		shown := v.String()
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		switch v.ExportType().Kind() {
		case reflect.String:
			return fmt.Sprintf("a string (%q)", shown)
		case reflect.Bool:
			return "a boolean (" + shown + ")"
		}
		return "a number (" + shown + ")"
	}
	switch o.ClassName() {
	case "Array":
		return "an array"
	case "Function":
		return "a function"
	}
	return ""
}

// Definition describes the tool.
func (t *jsTool) Definition() tool.Definition { return t.def }

// errToolTimedOut is the cause of a tool call stopped by its time limit.
var errToolTimedOut = errors.New("the extension tool ran out of time")

// Execute calls the extension's execute(toolCallId, params, signal,
// onUpdate, ctx) and reads its {content, details, isError}. The call has
// the runtime's tool budget (tools.extensionTimeoutMs): when it runs out,
// or the caller aborts, the call's signal aborts (its listeners run, the
// processes pi.exec started for it are killed) and the call ends.
func (t *jsTool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	params, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	budget := t.r.opts.ToolBudget
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	limit := time.AfterFunc(budget, func() { cancel(errToolTimedOut) })
	sig := t.r.newSignal(cctx, t.x.entry.Path)
	callID := tool.CallID(ctx)
	id := func(rt *goja.Runtime) goja.Value { return rt.ToValue(callID) }
	input := func(rt *goja.Runtime) goja.Value { v, _ := jsonParse(rt, params); return v }
	signal := sig.object
	update := func(rt *goja.Runtime) goja.Value {
		return rt.ToValue(func(partial goja.Value) {
			if onUpdate == nil {
				return
			}
			if res, err := resultFrom(partial); err == nil {
				onUpdate(res)
			}
		})
	}
	hctx := func(rt *goja.Runtime) goja.Value { return t.r.ctxObject(rt, t.x) }
	order := []func(*goja.Runtime) goja.Value{id, input, signal, update, hctx}
	if t.custom {
		order = []func(*goja.Runtime) goja.Value{id, input, update, hctx, signal}
	}
	val, err := t.r.vm.call(cctx, budget, t.execute, order...)
	limit.Stop()
	if errors.Is(err, ErrBudget) {
		cancel(errToolTimedOut) // the engine's clock ran out before the timer
	}
	sig.release() // a stopped call's abort listeners run now
	// A call stopped by the caller or its limit is stopped even when its
	// code, woken by the signal, still returned a value before the engine
	// noticed (a killed pi.exec resolves, and execute may return it).
	if err != nil || cctx.Err() != nil {
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("%s: %w", t.def.Name, tool.ErrAborted)
		case errors.Is(context.Cause(cctx), errToolTimedOut):
			return nil, &tool.Error{Msg: fmt.Sprintf("The tool %s did not finish within %v and was cancelled. If it needs longer, raise tools.extensionTimeoutMs (milliseconds) in the settings.", t.def.Name, budget), Err: errToolTimedOut}
		case err != nil:
			return nil, err
		}
	}
	var res *tool.Result
	err = t.r.vm.do(t.r.opts.Budget, func(*goja.Runtime) error {
		var e error
		res, e = resultFrom(val)
		return e
	})
	if err != nil {
		return nil, fmt.Errorf("the tool %s returned something that is not a result ({content: [{type: \"text\", text}]}): %w", t.def.Name, err)
	}
	return res, nil
}

// resultFrom reads {content, details, isError} (a string is text).
func resultFrom(v goja.Value) (*tool.Result, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return &tool.Result{Content: []tool.Content{tool.Text("")}}, nil
	}
	if s, ok := v.Export().(string); ok {
		return &tool.Result{Content: []tool.Content{tool.Text(s)}}, nil
	}
	b, err := json.Marshal(v.Export())
	if err != nil {
		return nil, err
	}
	var raw struct {
		Content json.RawMessage `json:"content"`
		Details json.RawMessage `json:"details"`
		IsError bool            `json:"isError"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	res := &tool.Result{IsError: raw.IsError}
	if len(raw.Details) > 0 && string(raw.Details) != "null" {
		res.Details = raw.Details
	}
	if len(raw.Content) == 0 {
		return nil, errors.New("no content")
	}
	var text string
	if json.Unmarshal(raw.Content, &text) == nil {
		res.Content = []tool.Content{tool.Text(text)}
		return res, nil
	}
	var list ai.ContentList
	if err := json.Unmarshal(raw.Content, &list); err != nil {
		return nil, err
	}
	for _, c := range list {
		res.Content = append(res.Content, c)
	}
	return res, nil
}
