package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/message"
)

// rendererBudget bounds one call of a message renderer: the interactive
// mode waits for it while drawing.
const rendererBudget = 250 * time.Millisecond

// Renderer draws the custom messages of one customType in the interactive
// mode (pi.registerMessageRenderer(customType, renderer)).
type Renderer struct {
	CustomType string
	Extension  string // the extension's path
	rt         *Runtime
	fn         goja.Callable
}

// Render calls the renderer with the message, {expanded, width} and a
// plain theme, and reads what it returns: a string, a list of lines, or a
// component with render(width) returning lines (as omp's TUI components
// do). Styling the theme would add is left out: gopi's TUI styles the
// label itself.
func (rd *Renderer) Render(ctx context.Context, m *message.Custom, expanded bool, width int) (string, error) {
	msg, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	budget := min(rd.rt.opts.Budget, rendererBudget)
	val, err := rd.rt.vm.call(ctx, budget, rd.fn,
		func(rt *goja.Runtime) goja.Value { v, _ := jsonParse(rt, msg); return v },
		func(rt *goja.Runtime) goja.Value {
			return rt.ToValue(map[string]any{"expanded": expanded, "width": width})
		},
		func(rt *goja.Runtime) goja.Value { return plainTheme(rt) })
	if err != nil {
		return "", err
	}
	return rd.rt.renderedText(val, width, budget)
}

// renderedText reads what a renderer returned: a string, a list of
// lines, or a component whose render(width) returns lines.
func (r *Runtime) renderedText(val goja.Value, width int, budget time.Duration) (string, error) {
	var out string
	err := r.vm.do(budget, func(rt *goja.Runtime) error {
		if o, ok := val.(*goja.Object); ok {
			if render, ok := goja.AssertFunction(o.Get("render")); ok {
				v, err := render(o, rt.ToValue(width))
				if err != nil {
					return jsError(err)
				}
				val = v
			}
		}
		switch v := val.Export().(type) {
		case nil:
			return errors.New("the renderer returned nothing")
		case string:
			out = v
		case []any:
			lines := make([]string, 0, len(v))
			for _, l := range v {
				s, ok := l.(string)
				if !ok {
					return errors.New("the renderer returned a list that is not all strings")
				}
				lines = append(lines, s)
			}
			out = strings.Join(lines, "\n")
		default:
			return errors.New("the renderer must return a string, a list of lines or a component with render(width)")
		}
		return nil
	})
	return out, err
}

// plainTheme is the theme object renderers get: its styling functions
// return the text unchanged.
func plainTheme(rt *goja.Runtime) *goja.Object {
	th := rt.NewObject()
	same := func(c goja.FunctionCall) goja.Value { return c.Argument(len(c.Arguments) - 1) }
	for _, name := range []string{"fg", "bg", "bold", "italic", "underline", "dim", "inverse", "strikethrough"} {
		_ = th.Set(name, same)
	}
	return th
}

// Renderers returns the message renderers the extensions registered, by
// customType; the first registered for a type wins.
func (r *Runtime) Renderers() map[string]*Renderer {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]*Renderer{}
	for _, x := range r.exts {
		for _, rd := range x.renderers {
			if _, taken := out[rd.CustomType]; !taken {
				out[rd.CustomType] = rd
			}
		}
	}
	return out
}

// ToolRenderer draws the calls and results of an extension's or custom
// tool in the interactive mode (the tool's renderCall and renderResult).
type ToolRenderer struct {
	Tool       string
	rt         *Runtime
	call, resu goja.Callable // either may be nil
}

// HasCall reports whether the tool draws its calls.
func (tr *ToolRenderer) HasCall() bool { return tr.call != nil }

// HasResult reports whether the tool draws its results.
func (tr *ToolRenderer) HasResult() bool { return tr.resu != nil }

// RenderCall draws a call from its arguments (JSON).
func (tr *ToolRenderer) RenderCall(ctx context.Context, args json.RawMessage, width int) (string, error) {
	if tr.call == nil {
		return "", errors.New("the tool has no renderCall")
	}
	budget := min(tr.rt.opts.Budget, rendererBudget)
	val, err := tr.rt.vm.call(ctx, budget, tr.call,
		func(rt *goja.Runtime) goja.Value { v, _ := jsonParse(rt, args); return v },
		func(rt *goja.Runtime) goja.Value { return rt.ToValue(map[string]any{"width": width}) },
		func(rt *goja.Runtime) goja.Value { return plainTheme(rt) })
	if err != nil {
		return "", err
	}
	return tr.rt.renderedText(val, width, budget)
}

// RenderResult draws a result ({content, details, isError} as JSON) of a
// call with args; partial is true for updates while the tool runs.
func (tr *ToolRenderer) RenderResult(ctx context.Context, result, args json.RawMessage, expanded, partial bool, width int) (string, error) {
	if tr.resu == nil {
		return "", errors.New("the tool has no renderResult")
	}
	budget := min(tr.rt.opts.Budget, rendererBudget)
	val, err := tr.rt.vm.call(ctx, budget, tr.resu,
		func(rt *goja.Runtime) goja.Value { v, _ := jsonParse(rt, result); return v },
		func(rt *goja.Runtime) goja.Value {
			return rt.ToValue(map[string]any{"expanded": expanded, "isPartial": partial, "width": width})
		},
		func(rt *goja.Runtime) goja.Value { return plainTheme(rt) },
		func(rt *goja.Runtime) goja.Value { v, _ := jsonParse(rt, args); return v })
	if err != nil {
		return "", err
	}
	return tr.rt.renderedText(val, width, budget)
}

// ToolRenderers returns the renderers of the tools that define renderCall
// or renderResult, by tool name (the first tool of a name, as the session
// keeps it).
func (r *Runtime) ToolRenderers() map[string]*ToolRenderer {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]*ToolRenderer{}
	for _, x := range r.exts {
		for _, t := range x.tools {
			if _, taken := out[t.def.Name]; !taken && (t.renderCall != nil || t.renderResult != nil) {
				out[t.def.Name] = &ToolRenderer{Tool: t.def.Name, rt: r, call: t.renderCall, resu: t.renderResult}
			}
		}
	}
	return out
}
