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
	rest, found := localRest(p)
	root := e.LocalDir()
	if !found || root == "" {
		return "", false
	}
	abs = filepath.Join(root, filepath.FromSlash(rest))
	if abs != root && !strings.HasPrefix(abs, root+string(filepath.Separator)) {
		return root, true
	}
	return abs, true
}

// localRest returns the path after "local://" (or "local:/") in p,
// slash-separated and without leading slashes; found is false when p is
// no local:// URL.
func localRest(p string) (rest string, found bool) {
	rest, found = strings.CutPrefix(p, LocalScheme)
	if !found {
		rest, found = strings.CutPrefix(p, "local:/")
	}
	return strings.TrimLeft(strings.ReplaceAll(rest, "\\", "/"), "/"), found
}

// inLocalDir reports whether abs lies in the session's scratch directory.
func (e *Env) inLocalDir(abs string) bool {
	root := e.LocalDir()
	return root != "" && (abs == root || strings.HasPrefix(abs, root+string(filepath.Separator)))
}

// CheckLocal refuses a local:// URL that cannot name a file of this
// session's scratch directory: when the session has none (a tool would
// otherwise create a literal "local:" directory in the working
// directory), or when ".." climbs out of it. Any other path passes.
// Every tool that takes a path checks it before Resolve.
func (e *Env) CheckLocal(p string) error {
	rest, found := localRest(p)
	if !found {
		return nil
	}
	root := e.LocalDir()
	if root == "" {
		return Errorf("Cannot use %s: local:// resources are not available in this session (it has no scratch directory); use a file path instead.", p)
	}
	if abs := filepath.Join(root, filepath.FromSlash(rest)); abs != root && !strings.HasPrefix(abs, root+string(filepath.Separator)) {
		return Errorf("Cannot use %s: the path leaves local:// (the session's scratch directory); name a file inside it, e.g. local://notes.md.", p)
	}
	return nil
}

// LocalFile returns the file a local:// URL names in the session's
// scratch directory, refusing what CheckLocal refuses; ok is false when
// p is no local:// URL.
func (e *Env) LocalFile(p string) (abs string, ok bool, err error) {
	if _, found := localRest(p); !found {
		return "", false, nil
	}
	if err := e.CheckLocal(p); err != nil {
		return "", true, err
	}
	abs, _ = e.localPath(p)
	return abs, true, nil
}
