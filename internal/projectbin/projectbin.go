// Package projectbin finds the programs a project brings with it —
// node_modules/.bin, a Python virtual environment, Bundler's and Go's bin
// directories — before those on the machine's PATH, as omp does for its
// language servers and debug adapters: a project's own tools win.
package projectbin

import (
	"os"
	"path/filepath"
	"strings"
)

// localBins are the project directories searched, each when one of its
// markers is in the project's root.
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

// Dirs are root's own bin directories, in the order they are searched:
// those whose project markers root holds (whether or not they exist).
func Dirs(root string) []string {
	var out []string
	for _, b := range localBins {
		if HasMarker(root, b.markers) {
			out = append(out, filepath.Join(root, filepath.FromSlash(b.dir)))
		}
	}
	return out
}

// Find returns the executable file command names in the first of dirs
// that has one ("" entries are skipped), or "". A command with a path
// separator is taken as written, when it is executable.
func Find(command string, dirs []string) string {
	if strings.ContainsRune(command, filepath.Separator) {
		if IsExecutable(command) {
			return command
		}
		return ""
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, command); IsExecutable(p) {
			return p
		}
	}
	return ""
}

// IsExecutable reports whether p is a file (after symlinks) with an
// execute bit.
func IsExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// HasMarker reports whether root holds one of markers: a name (or
// slash-separated relative path), or a glob when it contains "*".
func HasMarker(root string, markers []string) bool {
	for _, m := range markers {
		if strings.Contains(m, "*") {
			if found, _ := filepath.Glob(filepath.Join(root, m)); len(found) > 0 {
				return true
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(m))); err == nil {
			return true
		}
	}
	return false
}

// Markers answers HasMarker for one root from a single read of its
// directory (a language server lookup asks about some 160 markers: one
// read instead of a stat each, on the way to the first frame). Markers
// with a slash are still looked up one by one.
type Markers struct {
	root  string
	names map[string]bool // the root's entries; nil when it could not be read
}

// ReadMarkers reads root's entries for Has.
func ReadMarkers(root string) *Markers {
	m := &Markers{root: root}
	if entries, err := os.ReadDir(root); err == nil {
		m.names = make(map[string]bool, len(entries))
		for _, e := range entries {
			m.names[e.Name()] = true
		}
	}
	return m
}

// Has reports what HasMarker(root, markers) reports.
func (m *Markers) Has(markers []string) bool {
	if m.names == nil {
		return HasMarker(m.root, markers)
	}
	for _, mk := range markers {
		switch {
		case strings.Contains(mk, "/"):
			if HasMarker(m.root, []string{mk}) {
				return true
			}
		case strings.Contains(mk, "*"):
			for name := range m.names {
				if ok, _ := filepath.Match(mk, name); ok {
					return true
				}
			}
		case m.names[mk]:
			return true
		}
	}
	return false
}
