package ast

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fileWrite is the new content of one file of a rewrite.
type fileWrite struct {
	display string // path as reported
	abs     string // path as found (may be a symbolic link)
	data    []byte
}

// staged is a fileWrite whose content already sits in a temporary file
// next to the file it replaces.
type staged struct {
	display []string // every reported path that names target
	target  string   // the regular file replaced (symbolic links resolved)
	tmp     string
	data    []byte
}

// Hooks the tests replace to make one step fail.
var (
	renameFile = os.Rename
	createTemp = os.CreateTemp
)

// PartialWriteError reports a rewrite whose renames stopped part way:
// the files in Written hold their new content, those in Unwritten were
// left as they were.
type PartialWriteError struct {
	Written   []string // display paths
	Unwritten []string // display paths
	Err       error
}

func (e *PartialWriteError) Error() string {
	return fmt.Sprintf("%v; the rewrite was only partly applied: %d of %d files written (%s), not written: %s",
		e.Err, len(e.Written), len(e.Written)+len(e.Unwritten), strings.Join(e.Written, ", "), strings.Join(e.Unwritten, ", "))
}

func (e *PartialWriteError) Unwrap() error { return e.Err }

// writeFiles replaces every file in ws with its new content, in two
// phases: first each content is written, synced and given the old file's
// permission bits in a temporary file beside its target; only when all of
// them are on disk are they renamed over their targets. A failure in the
// first phase removes the temporary files and changes nothing. A failure
// in the second (rare: the temporaries and targets share directories)
// returns the display paths already replaced with a *PartialWriteError.
//
// A path that is a symbolic link is written through: the file it points
// to gets the new content and the link stays a link.
func writeFiles(ws []fileWrite) ([]string, error) {
	var st []*staged
	byTarget := map[string]*staged{}
	cleanup := func() {
		for _, s := range st {
			if s.tmp != "" {
				os.Remove(s.tmp)
			}
		}
	}
	for _, w := range ws {
		target, err := filepath.EvalSymlinks(w.abs)
		if err != nil {
			cleanup()
			return nil, fmt.Errorf("write %s: %w", w.display, err)
		}
		if s := byTarget[target]; s != nil {
			// Two given paths reach the same file (a link and its
			// target): write it once, provided both agree on the result.
			if !bytes.Equal(s.data, w.data) {
				cleanup()
				return nil, fmt.Errorf("write %s: it is the same file as %s but the rewrites differ; name only one of them", w.display, s.display[0])
			}
			s.display = append(s.display, w.display)
			continue
		}
		tmp, err := stageFile(target, w.data)
		if err != nil {
			cleanup()
			return nil, fmt.Errorf("write %s: %w", w.display, err)
		}
		s := &staged{display: []string{w.display}, target: target, tmp: tmp, data: w.data}
		st = append(st, s)
		byTarget[target] = s
	}
	var written []string
	dirs := map[string]bool{}
	for i, s := range st {
		if err := renameFile(s.tmp, s.target); err != nil {
			var unwritten []string
			for _, rest := range st[i:] {
				os.Remove(rest.tmp)
				unwritten = append(unwritten, rest.display...)
			}
			syncDirs(dirs)
			err = fmt.Errorf("write %s: %w", s.display[0], err)
			if len(written) == 0 {
				return nil, err
			}
			return written, &PartialWriteError{Written: written, Unwritten: unwritten, Err: err}
		}
		s.tmp = ""
		written = append(written, s.display...)
		dirs[filepath.Dir(s.target)] = true
	}
	syncDirs(dirs)
	return written, nil
}

// stageFile writes data to a new temporary file in target's directory
// with target's permission bits, synced to disk, and returns its name.
// The name is short (".gopi-" and a random number) so that it fits the
// file-name limit whatever the length of target's name.
func stageFile(target string, data []byte) (string, error) {
	info, err := os.Stat(target)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	f, err := createTemp(filepath.Dir(target), ".gopi-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(info.Mode().Perm()); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// syncDirs flushes the directory entries changed by the renames; a
// directory that cannot be synced (some file systems refuse) is left.
func syncDirs(dirs map[string]bool) {
	for d := range dirs {
		if f, err := os.Open(d); err == nil {
			f.Sync()
			f.Close()
		}
	}
}
