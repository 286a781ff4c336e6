package tool

import (
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
)

// Env is the session state the built-in tools share: where relative paths
// start, the settings, the read cache, the artifact store and the engine
// caches. One Env per session; the tools built from it keep a pointer. It
// owns nothing that needs closing: the session's services (jobs, shell,
// pending actions; core/tools/registry.Services) and caches are closed by
// the session.
type Env struct {
	Cwd         string          // absolute working directory of the session
	Home        string          // the user's home directory, for "~" in paths; "" leaves "~" as written
	Settings    Settings        // tool settings
	ReadCache   *ReadCache      // lines shown to the model, for stale-edit recovery
	Artifacts   *artifact.Store // full outputs; nil when the session has none
	Caches      *Caches         // engine caches of the session (scan, content, parse); nil: none, every call walks and parses afresh
	EditEnabled bool            // the edit tool is offered (anchors are pointless without it)
	UI          UI              // the user's front end; nil when there is none (print mode)
	Files       Files           // where read, edit and write get and put file contents; nil: the local disk
	Diagnostics Diagnoser       // language server diagnostics after a write; nil: none (no servers, or lsp.enabled off)
	WriteChecks *WriteChecks    // owner of the diagnostics fetches after writes (the session's services close it); nil: no diagnostics after writes
	Keys        StoredKeys      // credentials stored outside the settings (the session's model registry); nil: none
	// ToolNames, when set, returns the names of the tools the session
	// offers now (the bash interceptor blocks a command only while the
	// tool it points to is offered); nil: unknown, treated as none.
	ToolNames func() []string
	// LocalFallback is the scratch directory behind local:// for a session
	// without an artifacts directory (one kept in memory); see LocalDir.
	LocalFallback string

	hosts    hostURIs                          // URL schemes served by an embedding host (SetHostURIs)
	internal atomic.Pointer[internalResources] // the session's skill:// and rule:// server (SetInternalResources)
	plan     atomic.Pointer[PlanMode]          // plan mode, while it is on (SetPlanMode)
}

// NewEnv returns an Env rooted at cwd (made absolute) with the default
// settings (callers with a configuration set Settings from SettingsFrom),
// an empty read cache, no artifact store and the edit tool enabled.
func NewEnv(cwd string) *Env {
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	return &Env{Cwd: cwd, Settings: DefaultSettings(), ReadCache: NewReadCache(), EditEnabled: true}
}

// NewEnvFrom returns NewEnv for a configuration: its working directory,
// home directory and tool settings.
func NewEnvFrom(c *config.Config) *Env {
	e := NewEnv(c.Cwd)
	e.Home = c.Home
	e.Settings = SettingsFrom(c)
	return e
}

// Resolve turns a user path into an absolute path: "~" and "~/…" expand to
// the home directory, relative paths start at Cwd, and local:// URLs name
// files in the session's scratch directory (LocalDir). While plan mode is
// on, a path whose file name is the plan file's ("PLAN.md", "./PLAN.md")
// is the plan file (see PlanMode).
func (e *Env) Resolve(p string) string {
	abs, ok := e.localPath(p)
	if !ok {
		p = e.ExpandHome(p)
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.Cwd, p)
		}
		abs = filepath.Clean(p)
	}
	return e.planPath(abs)
}

// DisplayPath renders an absolute path for the model: a local:// URL in
// the session's scratch directory, relative to Cwd (slash-separated) when
// inside it, else absolute.
func (e *Env) DisplayPath(abs string) string {
	if root := e.LocalDir(); root != "" && e.inLocalDir(abs) {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != "." {
			return LocalScheme + filepath.ToSlash(rel)
		}
	}
	rel, err := filepath.Rel(e.Cwd, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}

// ExpandHome expands a leading "~" or "~/" to Home (nothing changes when
// Home is unknown).
func (e *Env) ExpandHome(p string) string {
	if e.Home == "" || p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	return filepath.Join(e.Home, p[1:])
}
