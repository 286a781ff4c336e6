// Package memoryfiles serves memory:// URLs: the files a memory pipeline
// keeps for a project (memory_summary.md and what it links to), read from
// a list of roots, the first holding the file winning.
//
// memory://root is the project's memory_summary.md; memory://root/<path>
// a file below the root. Paths may not leave the root, by ".." or by a
// symbolic link.
package memoryfiles

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Scheme starts every memory URL.
const Scheme = "memory://"

// Namespace is the one namespace served.
const Namespace = "root"

// SummaryFile is what memory://root names.
const SummaryFile = "memory_summary.md"

// ErrNoMemories is the error when no root exists yet.
var ErrNoMemories = errors.New("this project has no memory files yet; they appear once a session with memories enabled has run")

// Files resolves memory:// URLs against roots.
type Files struct {
	Roots []string // searched in order
}

// Resolve returns the file url names in the first root that has it.
func (f Files) Resolve(url string) (string, error) {
	rel, err := parse(url)
	if err != nil {
		return "", err
	}
	anyRoot := false
	for _, root := range f.Roots {
		real, err := filepath.EvalSymlinks(root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		anyRoot = true
		target, err := filepath.EvalSymlinks(filepath.Join(real, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if target != real && !strings.HasPrefix(target, real+string(filepath.Separator)) {
			return "", fmt.Errorf("%s leads out of the memory directory; name a file inside it", url)
		}
		st, err := os.Stat(target)
		if err != nil {
			return "", err
		}
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("%s is not a file; name a file, e.g. %s%s", url, Scheme, Namespace)
		}
		return target, nil
	}
	if !anyRoot {
		return "", ErrNoMemories
	}
	return "", fmt.Errorf("no memory file %s; %s%s is the summary that lists them", url, Scheme, Namespace)
}

// Read returns the text of the file url names and the file.
func (f Files) Read(url string) (content, file string, err error) {
	file, err = f.Resolve(url)
	if err != nil {
		return "", "", err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", err
	}
	return string(b), file, nil
}

// parse checks url and returns the slash-separated path it names below
// a root.
func parse(url string) (string, error) {
	rest, ok := strings.CutPrefix(url, Scheme)
	if !ok {
		return "", fmt.Errorf("%s is not a memory:// URL", url)
	}
	ns, path, _ := strings.Cut(rest, "/")
	switch ns {
	case "":
		return "", fmt.Errorf("%s names no namespace; use %s%s", url, Scheme, Namespace)
	case Namespace:
	default:
		return "", fmt.Errorf("unknown memory namespace %q in %s; the only one is %s%s", ns, url, Scheme, Namespace)
	}
	path = strings.Trim(strings.ReplaceAll(path, "\\", "/"), "/")
	if path == "" {
		return SummaryFile, nil
	}
	if strings.HasPrefix(path, "~") || filepath.IsAbs(path) {
		return "", fmt.Errorf("%s: memory:// paths are relative to the memory directory", url)
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%s: \"..\" is not allowed in memory:// paths", url)
		}
	}
	return path, nil
}
