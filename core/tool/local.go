package tool

import (
	"path/filepath"
	"strings"
)

// LocalScheme is the URL scheme of the session's scratch directory: files
// the agent keeps for itself (the plan of plan mode, handoffs between
// agents) rather than in the project. "local://PLAN.md" names PLAN.md in
// that directory, as in omp.
const LocalScheme = "local://"

// LocalDir returns the session's scratch directory behind local://: the
// "local" directory inside the session's artifacts directory, or, for a
// session without one (kept in memory), LocalFallback. "" when neither is
// known.
func (e *Env) LocalDir() string {
	if e.Artifacts != nil && e.Artifacts.Dir() != "" {
		return filepath.Join(e.Artifacts.Dir(), "local")
	}
	return e.LocalFallback
}

// IsLocalURL reports whether p is a local:// URL this Env can resolve
// (also the "local:/x" spelling).
func (e *Env) IsLocalURL(p string) bool {
	_, ok := e.localPath(p)
	return ok
}

// localPath resolves a local:// URL to its file; ok is false when p is
// not one, when the session has no scratch directory, or when the path
// would leave the directory (the directory itself is returned then).
func (e *Env) localPath(p string) (abs string, ok bool) {
	rest, found := strings.CutPrefix(p, LocalScheme)
	if !found {
		rest, found = strings.CutPrefix(p, "local:/")
	}
	if !found {
		return "", false
	}
	root := e.LocalDir()
	if root == "" {
		return "", false
	}
	rest = strings.TrimLeft(strings.ReplaceAll(rest, "\\", "/"), "/")
	abs = filepath.Join(root, filepath.FromSlash(rest))
	if abs != root && !strings.HasPrefix(abs, root+string(filepath.Separator)) {
		return root, true
	}
	return abs, true
}

// inLocalDir reports whether abs lies in the session's scratch directory.
func (e *Env) inLocalDir(abs string) bool {
	root := e.LocalDir()
	return root != "" && (abs == root || strings.HasPrefix(abs, root+string(filepath.Separator)))
}
