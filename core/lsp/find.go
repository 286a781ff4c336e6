package lsp

import (
	"path/filepath"

	"github.com/gopi-agent/gopi/internal/projectbin"
)

// finder looks server programs up: the root's own bin directories
// (projectbin), the extra directories, then PATH.
type finder struct{ dirs []string }

func newFinder(root string, extra []string, path string) finder {
	dirs := projectbin.Dirs(root)
	dirs = append(dirs, extra...)
	return finder{dirs: append(dirs, filepath.SplitList(path)...)}
}

// find returns the executable for command, or "". A command with a path
// separator is taken as it is (relative to nothing: it must be absolute
// or found as written).
func (f finder) find(command string) string { return projectbin.Find(command, f.dirs) }
