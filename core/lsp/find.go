package lsp

import (
	"os"
	"path/filepath"
	"strings"
)

// localBins are the project directories searched for a server program
// before PATH, each when one of its markers is in the root: a project's
// own tools win over the machine's.
var localBins = []struct {
	markers []string
	dir     string
}{
	{[]string{"package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml"}, "node_modules/.bin"},
	{[]string{"pyproject.toml", "requirements.txt", "setup.py", "Pipfile"}, ".venv/bin"},
	{[]string{"pyproject.toml", "requirements.txt", "setup.py", "Pipfile"}, "venv/bin"},
	{[]string{"pyproject.toml", "requirements.txt", "setup.py", "Pipfile"}, ".env/bin"},
	{[]string{"Gemfile", "Gemfile.lock"}, "vendor/bundle/bin"},
	{[]string{"Gemfile", "Gemfile.lock"}, "bin"},
	{[]string{"go.mod", "go.sum"}, "bin"},
}

// finder looks server programs up: the root's own bin directories, the
// extra directories, then PATH.
type finder struct{ dirs []string }

func newFinder(root string, extra []string, path string) finder {
	var f finder
	for _, b := range localBins {
		if hasRootMarker(root, b.markers) {
			f.dirs = append(f.dirs, filepath.Join(root, b.dir))
		}
	}
	f.dirs = append(f.dirs, extra...)
	f.dirs = append(f.dirs, filepath.SplitList(path)...)
	return f
}

// find returns the executable for command, or "". A command with a path
// separator is taken as it is (relative to nothing: it must be absolute
// or found as written).
func (f finder) find(command string) string {
	if strings.ContainsRune(command, filepath.Separator) {
		if isExecutable(command) {
			return command
		}
		return ""
	}
	for _, d := range f.dirs {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, command); isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
