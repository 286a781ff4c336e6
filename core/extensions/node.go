package extensions

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/dop251/goja"
	_ "github.com/dop251/goja_nodejs/buffer" // registers the buffer core module
	"github.com/dop251/goja_nodejs/require"
	_ "github.com/dop251/goja_nodejs/url"  // registers the url core module
	_ "github.com/dop251/goja_nodejs/util" // registers the util core module

	"github.com/gopi-agent/gopi/core/config"
)

// Node's built-in modules, as far as extensions in the wild use them. An
// import of one (bundle.go sends every built-in name here) is answered by
// nodeModule: buffer, url and util's format come from goja_nodejs; fs,
// path, os, child_process and crypto are Go (node_*.go) over gopi's file
// layer and process policy; events, stream, timers and the rest of util
// are JavaScript (node.js) on top of those. A module gopi does not provide
// fails the extension's load with a message naming it.

//go:embed node.js
var nodeJS string

// nodeProvided lists the modules gopi provides, for the refusal message.
var nodeProvided = []string{"assert", "buffer", "child_process", "crypto", "events", "fs", "fs/promises", "os", "path", "path/posix", "process", "stream", "string_decoder", "timers", "timers/promises", "url", "util"}

// nodeRefused says why a module is not provided, for the common ones.
var nodeRefused = map[string]string{
	"http": "no network client or server in the extension runtime", "https": "no network client or server in the extension runtime",
	"http2": "no network client or server in the extension runtime", "net": "no sockets", "tls": "no sockets", "dgram": "no sockets",
	"dns": "no resolver", "zlib": "no compression", "worker_threads": "one engine, no threads", "cluster": "one engine, no threads",
	"vm": "no second engine", "v8": "no V8", "inspector": "no V8", "tty": "no terminal access; use ctx.ui",
	"readline": "no terminal access; use ctx.ui", "repl": "no terminal access",
}

// nodeBuiltins are the names bundle.go routes to the runtime.
var nodeBuiltins = []string{"assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto", "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2", "https", "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode", "querystring", "readline", "repl", "stream", "string_decoder", "sys", "timers", "tls", "trace_events", "tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib"}

// nodeHost is the runtime's state for the built-in modules (engine
// goroutine only, except procs).
type nodeHost struct {
	req     *require.RequireModule
	mods    map[string]goja.Value
	views   map[*goja.Object]*esmView // the built-in modules' ESM views (esmview.go)
	jsMods  goja.Callable             // node.js's module maker, compiled on first use
	environ []string
	procs   *procGroup
}

// installNode defines require (built-in modules only), process and Buffer.
func (r *Runtime) installNode(rt *goja.Runtime) {
	env := r.opts.Env
	if len(env) == 0 {
		env = config.ProcessEnv().Environ()
	}
	r.node = &nodeHost{mods: map[string]goja.Value{}, views: map[*goja.Object]*esmView{}, environ: env, procs: newProcGroup()}
	// goja_nodejs's registry serves its core modules only: it never reads
	// files.
	reg := require.NewRegistry(require.WithLoader(func(string) ([]byte, error) { return nil, require.ModuleFileDoesNotExistError }))
	r.node.req = reg.Enable(rt)
	rt.Set("require", func(name string) goja.Value { return r.nodeModule(rt, name) })
	rt.Set("__gopiNodeModule", func(name string) goja.Value { return r.nodeModule(rt, name) })
	rt.Set("__gopiBuiltinESM", func(v goja.Value) goja.Value { return r.builtinESM(rt, v) })
	// process and Buffer are made when first used: start-up stays cheap.
	lazy := func(name string, get func() goja.Value) {
		_ = rt.GlobalObject().DefineAccessorProperty(name, rt.ToValue(func() goja.Value {
			v := get()
			_ = rt.GlobalObject().DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
			return v
		}), rt.ToValue(func(v goja.Value) {
			_ = rt.GlobalObject().DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}), goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	lazy("process", func() goja.Value { return r.nodeModule(rt, "process") })
	lazy("Buffer", func() goja.Value { return r.nodeModule(rt, "buffer").ToObject(rt).Get("Buffer") })
}

// nodeModule returns the built-in module name ("node:" optional), made
// once per runtime; it throws for a module gopi does not provide.
func (r *Runtime) nodeModule(rt *goja.Runtime, name string) goja.Value {
	name = strings.TrimPrefix(name, "node:")
	if m, ok := r.node.mods[name]; ok {
		return m
	}
	m := r.makeNodeModule(rt, name)
	r.node.mods[name] = m
	if o, ok := m.(*goja.Object); ok && r.node.views[o] == nil {
		r.node.views[o] = &esmView{}
	}
	return m
}

func (r *Runtime) makeNodeModule(rt *goja.Runtime, name string) goja.Value {
	switch name {
	case "buffer", "url", "util":
		native, err := r.node.req.Require(name)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		if name == "buffer" {
			return native
		}
		return r.jsModule(rt, name, native)
	case "fs":
		return r.fsModule(rt)
	case "fs/promises":
		return r.fsModule(rt).Get("promises")
	case "path", "path/posix":
		return pathModule(rt, r.cwd)
	case "os":
		return r.osModule(rt)
	case "crypto":
		return cryptoModule(rt)
	case "process":
		return r.processModule(rt)
	case "child_process":
		return r.jsModule(rt, name, r.spawnPrimitive(rt))
	case "sys":
		return r.nodeModule(rt, "util")
	}
	for _, p := range nodeProvided {
		if p == name {
			return r.jsModule(rt, name, goja.Undefined())
		}
	}
	why := nodeRefused[name]
	if why == "" {
		why = "not implemented"
	}
	provided := append([]string(nil), nodeProvided...)
	sort.Strings(provided)
	panic(newError(rt, fmt.Sprintf("gopi runs extensions without Node.js: the built-in module %q is not available (%s); gopi provides %s", name, why, strings.Join(provided, ", "))))
}

// jsModule makes a module written in node.js, given its native part.
func (r *Runtime) jsModule(rt *goja.Runtime, name string, native goja.Value) goja.Value {
	if r.node.jsMods == nil {
		prog, err := ownScript("gopi:node.js", nodeJS)
		if err != nil {
			panic(err)
		}
		v, err := rt.RunProgram(prog)
		if err != nil {
			panic(err)
		}
		fn, ok := goja.AssertFunction(v)
		if !ok {
			panic(rt.NewTypeError("node.js does not evaluate to a function"))
		}
		r.node.jsMods = fn
	}
	m, err := r.node.jsMods(goja.Undefined(), rt.ToValue(name), native, rt.ToValue(func(n string) goja.Value { return r.nodeModule(rt, n) }))
	if err != nil {
		panic(err)
	}
	return m
}

// cwd is the directory relative paths of extensions resolve against: the
// session's once bound, the launch directory before.
func (r *Runtime) cwd() string {
	if h := r.hostOrNil(); h != nil {
		return h.Cwd()
	}
	if r.opts.Cwd != "" {
		return r.opts.Cwd
	}
	return "/"
}
