package pykernel

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// safeVars are the variables a kernel inherits as they are; safePrefixes
// the families it inherits whole. Everything else stays out unless the
// configuration names it.
var (
	safeVars = []string{
		"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
		"TERM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TMPDIR", "TEMP", "TMP",
		"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR",
		"SSH_AUTH_SOCK", "SSH_AGENT_PID", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV",
		"PYTHONPATH", "LD_LIBRARY_PATH",
	}
	safePrefixes = []string{"LC_", "XDG_", "PI_"}
	// secretVars never pass through a prefix rule: the model providers'
	// and search services' keys.
	secretVars = []string{
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY",
		"PERPLEXITY_API_KEY", "PERPLEXITY_COOKIES", "EXA_API_KEY", "AZURE_OPENAI_API_KEY", "MISTRAL_API_KEY",
	}
)

// FilterEnv returns the entries of environ (KEY=VALUE) a kernel may see:
// the safe variables and prefixes, minus the known secrets, plus every
// variable named in pass (which may name a secret on purpose).
func FilterEnv(environ, pass []string) []string {
	var out []string
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch {
		case slices.Contains(pass, k):
		case slices.Contains(secretVars, k):
			continue
		case slices.Contains(safeVars, k):
		case slices.ContainsFunc(safePrefixes, func(p string) bool { return strings.HasPrefix(k, p) }):
		default:
			continue
		}
		out = append(out, kv)
	}
	return out
}

// errNoPython is returned when no interpreter is found.
var errNoPython = errors.New("no Python found: no virtualenv (VIRTUAL_ENV, .venv or venv here, ~/.gopi/python-env) and no python3 or python on PATH; install Python 3.8 or later, or turn Python cells off with eval.py: false")

// resolvePython finds the interpreter for a kernel in cwd: the active
// virtualenv (VIRTUAL_ENV), then .venv or venv in cwd, then the managed
// ones, then python3 and python on the environment's PATH. It returns the interpreter and the
// environment with the virtualenv's bin directory first on PATH.
func resolvePython(cwd string, env, managed []string) (string, []string, error) {
	get := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
	venvs := append([]string{get("VIRTUAL_ENV"), filepath.Join(cwd, ".venv"), filepath.Join(cwd, "venv")}, managed...)
	for _, v := range venvs {
		if v == "" {
			continue
		}
		bin := filepath.Join(v, "bin")
		if py := filepath.Join(bin, "python"); isExec(py) {
			env = setEnv(env, "VIRTUAL_ENV", v)
			env = setEnv(env, "PATH", bin+string(os.PathListSeparator)+get("PATH"))
			return py, env, nil
		}
	}
	for _, name := range []string{"python3", "python"} {
		for _, dir := range filepath.SplitList(get("PATH")) {
			if dir == "" {
				continue
			}
			if p := filepath.Join(dir, name); isExec(p) {
				return p, env, nil
			}
		}
	}
	return "", env, errNoPython
}

// isExec reports whether p is an executable regular file.
func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// setEnv replaces or adds KEY=VALUE in env.
func setEnv(env []string, k, v string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
	return append(out, k+"="+v)
}
