package extensions

import (
	"strings"

	"github.com/dop251/goja"
)

// An extension's default or namespace import of a Node built-in
// (`import os from "node:os"`, `import * as path from "path"`) is compiled
// by esbuild into its __toESM helper, which copies every member of the
// module into a new object of getters: per import, per extension, for
// modules of dozens of members, the biggest part of running the imports.
// The runtime's built-in modules are the same objects for every extension
// of the engine, so their ESM view is made once per module and shared:
// the same getters over the same module, frozen as an ES module
// namespace is (no extension can add to another's view). Any other value
// goes through esbuild's own helper unchanged.

// esbuildToESM is how esbuild's __toESM helper starts in a bundle (esbuild
// prints it so whenever a bundle needs it; TestBuiltinESMViewShared
// fails if a new esbuild prints it otherwise).
const esbuildToESM = "var __toESM = (mod, isNodeMode, target) => ("

// withBuiltinESM makes a bundle's __toESM ask the runtime first
// (__gopiBuiltinESM answers undefined for anything but a built-in module).
func withBuiltinESM(code string) string {
	return strings.Replace(code, esbuildToESM, esbuildToESM[:len(esbuildToESM)-1]+"__gopiBuiltinESM(mod) || (", 1)
}

// esmView is a built-in module's shared ESM view and the number of own
// members the module had when it was made (a module an extension added
// members to gets a new view, as esbuild's copy would see them).
type esmView struct {
	view    goja.Value
	members int
}

// builtinESM is __gopiBuiltinESM: the shared view of a built-in module,
// undefined for any other value (or a module marked __esModule, whose
// import esbuild treats differently).
func (r *Runtime) builtinESM(rt *goja.Runtime, v goja.Value) goja.Value {
	o, ok := v.(*goja.Object)
	if !ok || r.node == nil {
		return goja.Undefined()
	}
	e := r.node.views[o]
	if e == nil {
		return goja.Undefined()
	}
	members := len(o.GetOwnPropertyNames())
	if e.view != nil && e.members == members {
		return e.view
	}
	if es := o.Get("__esModule"); es != nil && es.ToBoolean() {
		return goja.Undefined()
	}
	makeView, ok := goja.AssertFunction(rt.Get("__gopiESMView"))
	if !ok {
		return goja.Undefined()
	}
	view, err := makeView(goja.Undefined(), o)
	if err != nil {
		panic(err)
	}
	e.view, e.members = view, members
	return view
}
