package extensions

import (
	"path"
	"strings"

	"github.com/dop251/goja"
)

// pathModule is Node's path module, POSIX flavour (path.posix is itself);
// resolve starts from cwd().
func pathModule(rt *goja.Runtime, cwd func() string) *goja.Object {
	m := rt.NewObject()
	strs := func(c goja.FunctionCall) []string {
		out := make([]string, len(c.Arguments))
		for i, a := range c.Arguments {
			if _, ok := a.(goja.String); !ok && !isStringValue(a) {
				panic(rt.NewTypeError("The \"path\" argument must be of type string"))
			}
			out[i] = a.String()
		}
		return out
	}
	normalize := func(p string) string {
		if p == "" {
			return "."
		}
		out := path.Clean(p)
		if strings.HasSuffix(p, "/") && out != "/" {
			out += "/"
		}
		return out
	}
	resolve := func(parts []string) string {
		res := ""
		for i := len(parts) - 1; i >= 0; i-- {
			if parts[i] == "" {
				continue
			}
			res = path.Join(parts[i], res)
			if path.IsAbs(res) {
				return path.Clean(res)
			}
		}
		return path.Join(cwd(), res)
	}
	_ = m.Set("sep", "/")
	_ = m.Set("delimiter", ":")
	_ = m.Set("join", func(c goja.FunctionCall) goja.Value {
		var nonEmpty []string
		for _, s := range strs(c) {
			if s != "" {
				nonEmpty = append(nonEmpty, s)
			}
		}
		return rt.ToValue(normalize(strings.Join(nonEmpty, "/")))
	})
	_ = m.Set("resolve", func(c goja.FunctionCall) goja.Value { return rt.ToValue(resolve(strs(c))) })
	_ = m.Set("normalize", func(p string) string { return normalize(p) })
	_ = m.Set("isAbsolute", func(p string) bool { return path.IsAbs(p) })
	_ = m.Set("dirname", func(p string) string {
		if p == "" {
			return "."
		}
		if strings.Trim(p, "/") == "" {
			return "/"
		}
		return path.Dir(strings.TrimRight(p, "/"))
	})
	_ = m.Set("basename", func(p string, ext goja.Value) string {
		p = strings.TrimRight(p, "/")
		b := p[strings.LastIndex(p, "/")+1:]
		if ext != nil && !goja.IsUndefined(ext) {
			if e := ext.String(); e != b && strings.HasSuffix(b, e) {
				b = strings.TrimSuffix(b, e)
			}
		}
		return b
	})
	_ = m.Set("extname", func(p string) string { return extname(p) })
	_ = m.Set("relative", func(from, to string) string {
		a, b := resolve([]string{from}), resolve([]string{to})
		if a == b {
			return ""
		}
		as, bs := splitPath(a), splitPath(b)
		i := 0
		for i < len(as) && i < len(bs) && as[i] == bs[i] {
			i++
		}
		var out []string
		for range as[i:] {
			out = append(out, "..")
		}
		return strings.Join(append(out, bs[i:]...), "/")
	})
	_ = m.Set("parse", func(p string) map[string]any {
		root := ""
		if strings.HasPrefix(p, "/") {
			root = "/"
		}
		trimmed := strings.TrimRight(p, "/")
		base := trimmed[strings.LastIndex(trimmed, "/")+1:]
		dir := ""
		if i := strings.LastIndex(trimmed, "/"); i > 0 {
			dir = trimmed[:i]
		} else if i == 0 {
			dir = "/"
		}
		ext := extname(base)
		return map[string]any{"root": root, "dir": dir, "base": base, "ext": ext, "name": strings.TrimSuffix(base, ext)}
	})
	_ = m.Set("format", func(o map[string]any) string {
		get := func(k string) string { s, _ := o[k].(string); return s }
		base := get("base")
		if base == "" {
			base = get("name") + get("ext")
		}
		dir := get("dir")
		if dir == "" {
			dir = get("root")
		}
		switch {
		case dir == "":
			return base
		case strings.HasSuffix(dir, "/"):
			return dir + base
		}
		return dir + "/" + base
	})
	_ = m.Set("toNamespacedPath", func(p string) string { return p })
	_ = m.Set("posix", m)
	_ = m.Set("default", m)
	return m
}

func isStringValue(v goja.Value) bool {
	if v == nil {
		return false
	}
	_, ok := v.Export().(string)
	return ok
}

// extname is Node's: the last dot of the base name, not a leading one.
func extname(p string) string {
	p = strings.TrimRight(p, "/")
	b := p[strings.LastIndex(p, "/")+1:]
	i := strings.LastIndex(b, ".")
	if i <= 0 {
		return ""
	}
	return b[i:]
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
