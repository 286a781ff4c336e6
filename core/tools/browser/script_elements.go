package browser

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/headless"
)

// The bounds of one observation (omp has none): a page with more
// interactive elements lists the first ObserveMaxElements in document
// order, and names, values and descriptions are cut to ObserveMaxText
// characters, with a note in the observation saying so. They keep a
// huge page's snapshot, and the work of resolving its elements, small.
const (
	ObserveMaxElements = 1000
	ObserveMaxText     = 300
)

// observeLimits are the bounds observe applies (tests lower them to keep
// their pages small).
var observeLimits = struct{ elements, text int }{ObserveMaxElements, ObserveMaxText}

// installElementHelpers puts the tab helpers that work on elements on
// tab: observe, id, drag, select, uploadFile and scrollIntoView.
func (s *script) installElementHelpers(tab *goja.Object) {
	s.method(tab, "observe", func(c goja.FunctionCall) any {
		var o struct {
			IncludeAll   bool `json:"includeAll"`
			ViewportOnly bool `json:"viewportOnly"`
		}
		s.options(c.Argument(0), &o)
		obs, err := s.tab.page.Observe(s.ctx, headless.ObserveOptions{IncludeAll: o.IncludeAll, ViewportOnly: o.ViewportOnly,
			MaxElements: observeLimits.elements, MaxText: observeLimits.text})
		s.check(err)
		return s.fromGo(obs)
	})
	s.method(tab, "id", func(c goja.FunctionCall) any {
		el, err := s.tab.page.ByID(s.ctx, int(c.Argument(0).ToInteger()))
		s.check(err)
		return s.element(el)
	})
	s.method(tab, "drag", func(c goja.FunctionCall) any {
		from := s.dragPoint(c.Argument(0), "from")
		to := s.dragPoint(c.Argument(1), "to")
		s.check(s.tab.page.Drag(s.ctx, from, to))
		return nil
	})
	s.method(tab, "scrollIntoView", func(c goja.FunctionCall) any {
		el, err := s.tab.page.Element(s.ctx, c.Argument(0).String())
		s.check(err)
		s.check(el.ScrollIntoView(s.ctx))
		return nil
	})
	s.method(tab, "select", func(c goja.FunctionCall) any {
		el, err := s.tab.page.Element(s.ctx, c.Argument(0).String())
		s.check(err)
		got, err := el.Select(s.ctx, s.strings(c.Arguments[min(1, len(c.Arguments)):]))
		s.check(err)
		return s.fromGo(got)
	})
	s.method(tab, "uploadFile", func(c goja.FunctionCall) any {
		el, err := s.tab.page.Element(s.ctx, c.Argument(0).String())
		s.check(err)
		s.check(el.SetFiles(s.ctx, s.paths(c.Arguments[min(1, len(c.Arguments)):])))
		return nil
	})
}

// dragPoint is one end of a drag: a selector's element centre (it must
// be there now) or an {x, y} point of the viewport.
func (s *script) dragPoint(v goja.Value, end string) headless.Point {
	if obj, ok := v.(*goja.Object); ok {
		x, y := obj.Get("x"), obj.Get("y")
		if x != nil && y != nil && isNumber(x) && isNumber(y) {
			return headless.Point{X: x.ToFloat(), Y: y.ToFloat()}
		}
	}
	sel, ok := v.Export().(string)
	if !ok {
		s.throw(fmt.Errorf("tab.drag: %s is neither a selector string nor an {x, y} point", end))
	}
	el, err := s.tab.page.Query(s.ctx, sel)
	s.check(err)
	if el == nil {
		s.throw(fmt.Errorf("tab.drag: no element matches the %s selector %q", end, sel))
	}
	box, err := el.Box(s.ctx)
	s.check(err)
	if box == nil {
		s.throw(fmt.Errorf("tab.drag: the %s element %q is not rendered (no box); make it visible first", end, sel))
	}
	return headless.Point{X: box.X + box.Width/2, Y: box.Y + box.Height/2}
}

// isNumber reports whether v is a JavaScript number.
func isNumber(v goja.Value) bool {
	switch v.Export().(type) {
	case int64, float64:
		return true
	}
	return false
}

// element is the JavaScript handle of el: the puppeteer ElementHandle
// methods a model uses.
func (s *script) element(el *headless.Element) *goja.Object {
	h := s.vm.NewObject()
	s.method(h, "click", func(goja.FunctionCall) any { s.check(el.Click(s.ctx)); return nil })
	s.method(h, "hover", func(goja.FunctionCall) any { s.check(el.Hover(s.ctx)); return nil })
	s.method(h, "focus", func(goja.FunctionCall) any { s.check(el.Focus(s.ctx)); return nil })
	s.method(h, "type", func(c goja.FunctionCall) any { s.check(el.Type(s.ctx, c.Argument(0).String())); return nil })
	s.method(h, "press", func(c goja.FunctionCall) any { s.check(el.Press(s.ctx, c.Argument(0).String())); return nil })
	s.method(h, "scrollIntoView", func(goja.FunctionCall) any { s.check(el.ScrollIntoView(s.ctx)); return nil })
	s.method(h, "boundingBox", func(goja.FunctionCall) any {
		b, err := el.Box(s.ctx)
		s.check(err)
		if b == nil {
			return goja.Null()
		}
		return s.fromGo(b)
	})
	s.method(h, "isIntersectingViewport", func(goja.FunctionCall) any {
		in, err := el.InViewport(s.ctx)
		s.check(err)
		return in
	})
	s.method(h, "isConnected", func(goja.FunctionCall) any { return el.Connected(s.ctx) })
	s.method(h, "select", func(c goja.FunctionCall) any {
		got, err := el.Select(s.ctx, s.strings(c.Arguments))
		s.check(err)
		return s.fromGo(got)
	})
	s.method(h, "uploadFile", func(c goja.FunctionCall) any { s.check(el.SetFiles(s.ctx, s.paths(c.Arguments))); return nil })
	s.method(h, "evaluate", func(c goja.FunctionCall) any {
		src, args := s.evalArgs(c)
		res, err := el.Evaluate(s.ctx, src, args)
		s.check(err)
		return s.parseJSON(string(res))
	})
	s.method(h, "dispose", func(goja.FunctionCall) any { return nil })
	return h
}

// options decodes an options object argument (absent: zero values).
func (s *script) options(v goja.Value, into any) {
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return
	}
	js, err := s.jsonOf(v, "")
	s.check(err)
	if js != "" {
		err := json.Unmarshal([]byte(js), into)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			err = fmt.Errorf("option %s must be a %s, not a %s", te.Field, jsTypeName(te.Type), te.Value)
		}
		s.check(err)
	}
}

// jsTypeName names a Go option field's type as JavaScript does.
func jsTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32, reflect.Uint, reflect.Uint64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}

// number is argument v of helper as a finite number; anything else
// (a string, NaN, Infinity) is refused with what was expected.
func (s *script) number(v goja.Value, helper, what string) float64 {
	f := v.ToFloat()
	if _, isNum := v.Export().(int64); !isNum {
		if _, isFloat := v.Export().(float64); !isFloat || math.IsNaN(f) || math.IsInf(f, 0) {
			s.throw(fmt.Errorf("%s: %s must be a finite number, not %s", helper, what, v.String()))
		}
	}
	return f
}

// fromGo is v as a JavaScript value, through its JSON form.
func (s *script) fromGo(v any) goja.Value {
	js, err := json.Marshal(v)
	s.check(err)
	return s.parseJSON(string(js))
}

// parseJSON is JSON.parse(js).
func (s *script) parseJSON(js string) goja.Value {
	parse, _ := goja.AssertFunction(s.vm.Get("JSON").ToObject(s.vm).Get("parse"))
	v, err := parse(goja.Undefined(), s.vm.ToValue(js))
	s.check(err)
	return v
}

// strings are the arguments as strings.
func (s *script) strings(args []goja.Value) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.String()
	}
	return out
}

// paths are the arguments as absolute paths, relative ones resolved
// against the session's directory.
func (s *script) paths(args []goja.Value) []string {
	out := s.strings(args)
	for i, p := range out {
		out[i] = s.env.Resolve(p)
	}
	return out
}
