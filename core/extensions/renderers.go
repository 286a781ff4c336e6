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
	var out string
	err = rd.rt.vm.do(budget, func(rt *goja.Runtime) error {
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
