package config

import (
	"path/filepath"
	"strings"
)

// Environment variables of the eval tool.
const (
	// EnvPy picks eval's runtimes over eval.py and eval.js: 0 or bash is
	// JavaScript only, 1 or py Python only, mix or both the two; other
	// values are ignored.
	EnvPy = "PI_PY"
	// EnvPythonSkipCheck, when 1, skips looking for a Python interpreter
	// before Python cells are offered (the kernel still needs one).
	EnvPythonSkipCheck = "PI_PYTHON_SKIP_CHECK"
)

// Eval is the eval tool's configuration.
type Eval struct {
	Python bool // Python cells are offered (eval.py; PI_PY)
	JS     bool // JavaScript cells are offered (eval.js; PI_PY)
	// PerCall runs every Python cell in a fresh kernel (python.kernelMode
	// "per-call"); otherwise a session keeps its kernel.
	PerCall bool
	// Environ is the environment Python kernels start from (the process's
	// and the .env files'); the kernel package filters it.
	Environ []string
	// PassEnv names variables a kernel gets although the filter would
	// drop them, provider API keys included (python.passEnv).
	PassEnv []string
	// SkipPythonCheck: do not look for an interpreter up front
	// (PI_PYTHON_SKIP_CHECK=1).
	SkipPythonCheck bool
	// ManagedVenvs are the virtual environments kernels use when neither
	// an active one nor .venv/venv in the working directory exists:
	// ~/.gopi/python-env, then omp's ~/.omp/python-env.
	ManagedVenvs []string
}

// Eval returns the eval tool's configuration: the settings, with PI_PY
// choosing the runtimes when it holds a known value.
func (c *Config) Eval() Eval {
	e := Eval{Python: true, JS: true, Environ: c.Env.Environ(), SkipPythonCheck: c.Env.Get(EnvPythonSkipCheck) == "1"}
	for _, root := range []string{c.ConfigRoot, c.OMPRoot} {
		if root != "" {
			e.ManagedVenvs = append(e.ManagedVenvs, filepath.Join(root, "python-env"))
		}
	}
	if c.Settings != nil {
		e.Python, e.JS = c.Settings.Bool("eval.py"), c.Settings.Bool("eval.js")
		e.PerCall = c.Settings.String("python.kernelMode") == "per-call"
		e.PassEnv = c.Settings.Strings("python.passEnv")
	}
	switch strings.ToLower(strings.TrimSpace(c.Env.Get(EnvPy))) {
	case "0", "bash":
		e.Python, e.JS = false, true
	case "1", "py":
		e.Python, e.JS = true, false
	case "mix", "both":
		e.Python, e.JS = true, true
	}
	return e
}
