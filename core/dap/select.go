package dap

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/internal/projectbin"
)

// nativeDebuggers are the adapters preferred for programs without an
// extension (compiled binaries), in order.
var nativeDebuggers = []string{"gdb", "lldb-dap"}

// Resolver finds adapters' executables and picks one for a program. It
// remembers the versions it asked for, so it is for one goroutine (make
// one per choice).
type Resolver struct {
	Adapters []Adapter // the definitions; nil: Builtins()
	// Env is the environment adapters run in (KEY=VALUE); its PATH is
	// searched. Nil: this process's environment.
	Env []string

	versions map[string]int    // major versions by executable, once asked
	tooOld   map[string]string // why an adapter's executable does not count, by adapter name
}

func (r *Resolver) adapters() []Adapter {
	if r.Adapters == nil {
		return Builtins()
	}
	return r.Adapters
}

// Definition returns the definition named name.
func (r *Resolver) Definition(name string) (Adapter, bool) {
	for _, a := range r.adapters() {
		if a.Name == name {
			return a, true
		}
	}
	return Adapter{}, false
}

// Resolve returns the adapter named name when its executable is found
// for cwd.
func (r *Resolver) Resolve(name, cwd string) (*Resolved, bool) {
	a, ok := r.Definition(name)
	if !ok {
		return nil, false
	}
	return r.resolve(a, cwd)
}

func (r *Resolver) resolve(a Adapter, cwd string) (*Resolved, bool) {
	if a.Connect == "" {
		a.Connect = ConnectStdio
	}
	for _, cmd := range append([]string{a.Command}, a.Alternates...) {
		p := r.lookCommand(cmd, cwd)
		if p == "" {
			continue
		}
		if v := r.majorVersion(p, a.MinMajor); v > 0 && v < a.MinMajor {
			if r.tooOld == nil {
				r.tooOld = map[string]string{}
			}
			r.tooOld[a.Name] = fmt.Sprintf("%s is version %d, which has no DAP support (%d or later has)", p, v, a.MinMajor)
			continue
		}
		return &Resolved{Adapter: a, Path: p}, true
	}
	return nil, false
}

// Available returns the adapters whose executables are found, in
// definition order.
func (r *Resolver) Available(cwd string) []Resolved {
	var out []Resolved
	for _, a := range r.adapters() {
		if res, ok := r.resolve(a, cwd); ok {
			out = append(out, *res)
		}
	}
	return out
}

// SelectLaunch picks the adapter for launching program (absolute) from
// cwd: name when given, else the best available match (see the package
// doc). The error says what is installed and how to install a fitting
// adapter.
func (r *Resolver) SelectLaunch(program, cwd, name string) (*Resolved, error) {
	if name != "" {
		return r.named(name, cwd)
	}
	ext := strings.ToLower(filepath.Ext(program))
	available := r.Available(cwd)
	var candidates []Resolved
	if ext == "" {
		for _, a := range available {
			if slices.Contains(nativeDebuggers, a.Name) || projectbin.HasMarker(cwd, a.RootMarkers) {
				candidates = append(candidates, a)
			}
		}
	} else {
		for _, a := range available {
			if slices.Contains(a.FileTypes, ext) {
				candidates = append(candidates, a)
			}
		}
		if len(candidates) == 0 {
			candidates = available
		}
	}
	if len(candidates) == 0 {
		return nil, r.noneError(available, r.suggest(ext, cwd))
	}
	slices.SortStableFunc(candidates, func(x, y Resolved) int { return compareLaunch(x, y, ext, cwd) })
	return &candidates[0], nil
}

// compareLaunch orders adapters for a launch: extension match first, then
// a root marker in cwd, then the native debuggers' order, then the name.
func compareLaunch(x, y Resolved, ext, cwd string) int {
	xe, ye := ext != "" && slices.Contains(x.FileTypes, ext), ext != "" && slices.Contains(y.FileTypes, ext)
	if xe != ye {
		return boolFirst(xe)
	}
	xr, yr := projectbin.HasMarker(cwd, x.RootMarkers), projectbin.HasMarker(cwd, y.RootMarkers)
	if xr != yr {
		return boolFirst(xr)
	}
	if d := nativeRank(x.Name) - nativeRank(y.Name); d != 0 {
		return d
	}
	return strings.Compare(x.Name, y.Name)
}

func boolFirst(first bool) int {
	if first {
		return -1
	}
	return 1
}

func nativeRank(name string) int {
	if i := slices.Index(nativeDebuggers, name); i >= 0 {
		return i
	}
	return len(nativeDebuggers)
}

// SelectAttach picks the adapter for attaching from cwd: name when given;
// else debugpy for a remote port, then the native debuggers, then the
// first available.
func (r *Resolver) SelectAttach(cwd, name string, remote bool) (*Resolved, error) {
	if name != "" {
		return r.named(name, cwd)
	}
	available := r.Available(cwd)
	find := func(n string) *Resolved {
		for i := range available {
			if available[i].Name == n {
				return &available[i]
			}
		}
		return nil
	}
	if remote {
		if a := find("debugpy"); a != nil {
			return a, nil
		}
	}
	for _, n := range nativeDebuggers {
		if a := find(n); a != nil {
			return a, nil
		}
	}
	if len(available) > 0 {
		return &available[0], nil
	}
	return nil, r.noneError(available, "")
}

// named resolves an adapter the caller chose.
func (r *Resolver) named(name, cwd string) (*Resolved, error) {
	if res, ok := r.Resolve(name, cwd); ok {
		return res, nil
	}
	available := r.Available(cwd)
	a, ok := r.Definition(name)
	if !ok {
		var known []string
		for _, d := range r.adapters() {
			known = append(known, d.Name)
		}
		return nil, r.noneError(available, "unknown adapter "+strconv.Quote(name)+"; known adapters: "+strings.Join(known, ", "))
	}
	return nil, r.noneError(available, r.hint(a))
}

// suggest names the adapter to install for a program with extension ext
// (or, without one, for the project in cwd).
func (r *Resolver) suggest(ext, cwd string) string {
	for _, a := range r.adapters() {
		if ext != "" && slices.Contains(a.FileTypes, ext) || ext == "" && projectbin.HasMarker(cwd, a.RootMarkers) && a.Name != "bash-debug-adapter" {
			return r.hint(a)
		}
	}
	if ext == "" {
		if a, ok := r.Definition("gdb"); ok {
			return r.hint(a)
		}
	}
	return ""
}

// hint says why the adapter a cannot be used and how to install it.
func (r *Resolver) hint(a Adapter) string {
	if why := r.tooOld[a.Name]; why != "" {
		return why + "; install a newer one: " + a.Install
	}
	return installHint(a)
}

func installHint(a Adapter) string {
	if a.Install == "" {
		return a.Name + " is not installed: put " + a.Command + " on PATH"
	}
	return a.Name + " is not installed; install it with: " + a.Install
}

// noneError is omp's error for a failed selection, with hint appended.
func (r *Resolver) noneError(available []Resolved, hint string) error {
	names := make([]string, len(available))
	for i, a := range available {
		names[i] = a.Name
	}
	list := "none"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	msg := "No debugger adapter available. Installed adapters: " + list
	if hint != "" {
		msg += ". " + hint
	}
	return errors.New(msg)
}

// lookCommand finds cmd in cwd's project-local bin directories, then on
// PATH (an empty PATH entry is the current directory).
func (r *Resolver) lookCommand(cmd, cwd string) string {
	dirs := projectbin.Dirs(cwd)
	if r.Env == nil {
		if p := projectbin.Find(cmd, dirs); p != "" {
			return p
		}
		p, _ := exec.LookPath(cmd)
		return p
	}
	for _, dir := range filepath.SplitList(envValue(r.Env, "PATH")) {
		if dir == "" {
			dir = "."
		}
		dirs = append(dirs, dir)
	}
	return projectbin.Find(cmd, dirs)
}

// envValue returns the last value of key in env.
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
