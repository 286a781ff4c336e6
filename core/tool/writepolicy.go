package tool

import (
	"fmt"
	"path/filepath"
	"strings"
)

// OutsideCwd reports whether the absolute path abs lies outside the
// session's working directory. It judges the path as written (after
// "..", "." and "~" are resolved), not where symbolic links lead. The
// session's scratch directory (local://) counts as inside.
func (e *Env) OutsideCwd(abs string) bool {
	if e.inLocalDir(filepath.Clean(abs)) {
		return false
	}
	rel, err := filepath.Rel(e.Cwd, filepath.Clean(abs))
	return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// OutsideCwdWarning is the warning the file tools (edit in every mode,
// write) add to their result after changing a file outside the working
// directory, and "" for a file inside it. Such writes are allowed, as
// they are in omp; the warning makes them visible to the model and the
// user, who may not have meant to leave the project.
func (e *Env) OutsideCwdWarning(abs string) string {
	if !e.OutsideCwd(abs) {
		return ""
	}
	return fmt.Sprintf("%s is outside the working directory %s; make sure that is the file you meant to change.", abs, e.Cwd)
}
