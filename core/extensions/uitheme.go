package extensions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/tool"
)

// themeMembers adds ctx.ui's theme members: theme (the styling object
// renderers get, with the name of the theme in use), getAllThemes,
// getTheme and setTheme. They list and switch the UI's themes when it
// offers them (tool.ThemeUI); otherwise there are none and setTheme fails
// with a reason, as omp's RPC mode answers.
func themeMembers(rt *goja.Runtime, o *goja.Object, ui tool.UI) {
	tu, _ := ui.(tool.ThemeUI)
	names := func() []string {
		if tu == nil {
			return nil
		}
		return tu.Themes()
	}
	themeNamed := func(name string) *goja.Object {
		th := plainTheme(rt)
		_ = th.Set("name", name)
		return th
	}
	_ = o.DefineAccessorProperty("theme", rt.ToValue(func(goja.FunctionCall) goja.Value {
		if tu == nil {
			return themeNamed("")
		}
		return themeNamed(tu.Theme())
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = o.Set("getAllThemes", func() []map[string]any {
		out := []map[string]any{}
		for _, n := range names() {
			out = append(out, map[string]any{"name": n, "path": nil})
		}
		return out
	})
	_ = o.Set("getTheme", func(name string) goja.Value {
		if !slices.Contains(names(), name) {
			return goja.Undefined()
		}
		return themeNamed(name)
	})
	_ = o.Set("setTheme", func(v goja.Value) map[string]any {
		name := v.String()
		if obj, ok := v.(*goja.Object); ok {
			if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
				name = n.String()
			}
		}
		var err error
		switch {
		case tu == nil:
			err = fmt.Errorf("this mode has no themes to switch")
		case !slices.Contains(tu.Themes(), name):
			err = fmt.Errorf("no theme named %q (the themes are %s)", name, strings.Join(tu.Themes(), ", "))
		default:
			err = tu.SetTheme(name)
		}
		if err != nil {
			return map[string]any{"success": false, "error": err.Error()}
		}
		return map[string]any{"success": true}
	})
}
