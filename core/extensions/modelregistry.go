package extensions

import (
	"encoding/json"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/ai"
)

// modelRegistry is ctx.modelRegistry: the session's models as omp's
// registry lists them. find, getAll and getAvailable answer at once;
// getApiKeyAndHeaders resolves a promise. gopi keeps no OAuth models
// apart, so isUsingOAuth is always false.
func (r *Runtime) modelRegistry(rt *goja.Runtime, h Host) *goja.Object {
	o := rt.NewObject()
	toJS := func(m *ai.Model) goja.Value {
		if m == nil {
			return goja.Undefined()
		}
		b, err := json.Marshal(m)
		if err != nil {
			return goja.Undefined()
		}
		v, err := jsonParse(rt, b)
		if err != nil {
			return goja.Undefined()
		}
		return v
	}
	list := func(goja.FunctionCall) goja.Value {
		var out []any
		for _, m := range h.AvailableModels() {
			out = append(out, toJS(m))
		}
		return rt.NewArray(out...)
	}
	// modelOf reads a model argument: an object with provider and id.
	modelOf := func(v goja.Value) (provider, id string) {
		if obj, ok := v.(*goja.Object); ok {
			return optString(obj.Get("provider")), optString(obj.Get("id"))
		}
		return "", ""
	}
	_ = o.Set("find", func(provider, id string) goja.Value { return toJS(h.FindModel(provider, id)) })
	_ = o.Set("getAll", list)
	_ = o.Set("getAvailable", list)
	_ = o.Set("isUsingOAuth", func(goja.Value) bool { return false })
	_ = o.Set("hasConfiguredAuth", func(v goja.Value) bool {
		provider, _ := modelOf(v)
		return h.APIKey(provider) != ""
	})
	_ = o.Set("getApiKeyAndHeaders", func(v goja.Value) goja.Value {
		provider, _ := modelOf(v)
		return r.async(rt, func() (any, error) {
			key := h.APIKey(provider)
			if key == "" {
				return map[string]any{"ok": false, "error": "no API key for " + provider}, nil
			}
			return map[string]any{"ok": true, "apiKey": key, "headers": map[string]string{}}, nil
		})
	})
	return o
}
