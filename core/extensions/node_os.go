package extensions

import (
	"errors"
	"os"
	"runtime"
	"strings"

	"github.com/dop251/goja"
)

// envValue is a variable of the extensions' environment (Options.Env).
func (r *Runtime) envValue(key string) string {
	for _, kv := range r.node.environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// osModule is Node's os, with the values Node gives on this machine.
func (r *Runtime) osModule(rt *goja.Runtime) *goja.Object {
	m := rt.NewObject()
	_ = m.Set("EOL", "\n")
	_ = m.Set("platform", func() string { return nodePlatform() })
	_ = m.Set("type", func() string {
		if runtime.GOOS == "darwin" {
			return "Darwin"
		}
		return strings.ToUpper(runtime.GOOS[:1]) + runtime.GOOS[1:]
	})
	_ = m.Set("arch", func() string { return nodeArch() })
	_ = m.Set("homedir", func() string {
		if h := r.envValue("HOME"); h != "" {
			return h
		}
		h, _ := os.UserHomeDir()
		return h
	})
	_ = m.Set("tmpdir", func() string {
		if t := r.envValue("TMPDIR"); t != "" {
			return strings.TrimRight(t, "/")
		}
		return "/tmp"
	})
	_ = m.Set("hostname", func() string { h, _ := os.Hostname(); return h })
	_ = m.Set("cpus", func() []map[string]any {
		out := make([]map[string]any, runtime.NumCPU())
		for i := range out {
			out[i] = map[string]any{"model": runtime.GOARCH, "speed": 0}
		}
		return out
	})
	_ = m.Set("userInfo", func() map[string]any {
		return map[string]any{"username": r.envValue("USER"), "homedir": r.envValue("HOME"), "uid": os.Getuid(), "gid": os.Getgid(), "shell": r.envValue("SHELL")}
	})
	_ = m.Set("default", m)
	return m
}

// processModule is the process global: env (the session's environment,
// a copy), cwd(), platform, argv, pid, versions, nextTick, hrtime.
func (r *Runtime) processModule(rt *goja.Runtime) goja.Value {
	p := rt.NewObject()
	env := rt.NewObject()
	for _, kv := range r.node.environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			_ = env.Set(k, v)
		}
	}
	_ = p.Set("env", env)
	_ = p.Set("cwd", func() string { return r.cwd() })
	_ = p.Set("platform", nodePlatform())
	_ = p.Set("arch", nodeArch())
	_ = p.Set("argv", []string{"gopi", "gopi"})
	_ = p.Set("execArgv", []string{})
	_ = p.Set("pid", os.Getpid())
	_ = p.Set("version", "v22.0.0")
	_ = p.Set("versions", map[string]string{"node": "22.0.0"})
	_ = p.Set("release", map[string]string{"name": "node"})
	_ = p.Set("exitCode", goja.Undefined())
	_ = p.Set("exit", func(goja.FunctionCall) goja.Value {
		panic(newError(rt, errExit.Error()))
	})
	return r.jsModule(rt, "process", p)
}

// errExit is thrown by process.exit: an extension cannot end gopi.
var errExit = errors.New("process.exit is not available to extensions: throw an error or return from the handler instead")

func nodePlatform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	}
	return runtime.GOARCH
}
