package fscache

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Sentinel errors for a search root the agent must report to the user.
var (
	ErrPathNotFound = errors.New("path not found")
	ErrNotDirectory = errors.New("path is not a directory")
)

// RootError reports an unusable search root. Its message is user-facing:
// "Path not found: <path>" or "Path is not a directory: <path>", with the path
// as the caller gave it.
type RootError struct {
	Path string
	Err  error // ErrPathNotFound or ErrNotDirectory
}

func (e *RootError) Error() string {
	if e.Err == ErrNotDirectory {
		return "Path is not a directory: " + e.Path
	}
	return "Path not found: " + e.Path
}

// Unwrap returns the sentinel, for errors.Is.
func (e *RootError) Unwrap() error { return e.Err }

// ResolveSearchPath turns a user-supplied search path into the root used for
// scans and cache keys: relative paths are taken from the current directory
// ("" is the current directory), the target must exist and be a directory
// (symlinks to directories are accepted), and the result is absolute and,
// when symlinks can be evaluated, canonical.
func ResolveSearchPath(p string) (string, error) {
	abs, err := checkDir(p)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

// checkDir makes p absolute and checks that it names a directory.
func checkDir(p string) (string, error) {
	in := p
	if p == "" {
		p = "."
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", &RootError{Path: in, Err: ErrPathNotFound}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", &RootError{Path: in, Err: ErrPathNotFound}
	case err != nil:
		// Permission problems and the like: the path cannot be used as a root.
		return "", &RootError{Path: in, Err: ErrPathNotFound}
	case !fi.IsDir():
		return "", &RootError{Path: in, Err: ErrNotDirectory}
	}
	return abs, nil
}
