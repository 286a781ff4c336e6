package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
)

// Env is an immutable set of environment variables: the process
// environment plus what .env files added. It is built once by Load; code
// below core/config receives values from it (or its Get method as a
// lookup function) instead of reading the process environment. The zero
// Env is empty.
type Env struct {
	vars map[string]string
	from map[string]string // key → .env file that supplied it (absent: the process)
}

// NewEnv builds an Env from KEY=VALUE entries (os.Environ's form). Entries
// without "=" are ignored; a later entry for a key wins.
func NewEnv(environ []string) Env {
	e := Env{vars: make(map[string]string, len(environ))}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e.vars[k] = v
		}
	}
	return e
}

// EnvFromMap builds an Env holding exactly vars (copied), for tests and
// embedders.
func EnvFromMap(vars map[string]string) Env {
	return Env{vars: maps.Clone(vars)}
}

// ProcessEnv is the process environment alone, without .env files: the
// fallback for library entry points called without an Env.
func ProcessEnv() Env { return NewEnv(os.Environ()) }

// Get returns a variable's value, "" when it is unset. Its method value
// (env.Get) is the getenv function the lower packages accept.
func (e Env) Get(key string) string { return e.vars[key] }

// Lookup returns a variable's value and whether it is set.
func (e Env) Lookup(key string) (string, bool) {
	v, ok := e.vars[key]
	return v, ok
}

// Source names where a variable came from: the .env file that supplied
// it, or "" for the process environment (or an unset variable).
func (e Env) Source(key string) string { return e.from[key] }

// Environ returns the variables as sorted KEY=VALUE entries, for a child
// process.
func (e Env) Environ() []string {
	out := make([]string, 0, len(e.vars))
	for _, k := range slices.Sorted(maps.Keys(e.vars)) {
		out = append(out, k+"="+e.vars[k])
	}
	return out
}

// Len is the number of variables.
func (e Env) Len() int { return len(e.vars) }

// withDotenv returns e plus the variables of the .env files, in order.
// A variable that is already set to a non-empty value (by the process or
// an earlier file) is never replaced: the reference fills empty values
// too. Inside each file OMP_X is mirrored to PI_X first. A missing file is
// skipped; an unreadable file or a bad line is reported and the rest
// still applies.
func (e Env) withDotenv(files []string) (Env, []error) {
	return e.withDotenvFiltered(files, nil)
}

// withDotenvFiltered is withDotenv leaving out the variables drop names
// (by the file and the key; nil drops nothing).
func (e Env) withDotenvFiltered(files []string, drop func(path, key string) bool) (Env, []error) {
	out := Env{vars: maps.Clone(e.vars), from: maps.Clone(e.from)}
	if out.vars == nil {
		out.vars = map[string]string{}
	}
	if out.from == nil {
		out.from = map[string]string{}
	}
	var warnings []error
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				warnings = append(warnings, fmt.Errorf("read %s: %w", path, err))
			}
			continue
		}
		vars, errs := ParseDotenv(data)
		for _, pe := range errs {
			warnings = append(warnings, fmt.Errorf("%s: %w", path, pe))
		}
		mirrorOMP(vars)
		for _, k := range slices.Sorted(maps.Keys(vars)) {
			if out.vars[k] != "" || drop != nil && drop(path, k) {
				continue
			}
			out.vars[k] = vars[k]
			out.from[k] = path
		}
	}
	return out, warnings
}
