package ast

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// fileWrite is the new content of one file of a rewrite.
type fileWrite struct {
	display string // path as reported
	abs     string // path as found (may be a symbolic link)
	src     []byte // the content the rewrite was computed from
	data    []byte
}

// staged is a fileWrite whose content already sits in a temporary file
// next to the file it replaces.
type staged struct {
	display []string // every reported path that names target
	target  string   // the regular file replaced (symbolic links resolved)
	src     []byte
	data    []byte
	file    *atomicfile.Staged
}

// writeSteps are the two steps of writeFiles for one file; a nil step is
// atomicfile's (Stage, Staged.Commit). Tests set them on an EditRequest
// to make one step fail.
type writeSteps struct {
	stage  func(path string, perm os.FileMode, write func(io.Writer) error) (*atomicfile.Staged, error)
	commit func(*atomicfile.Staged) error
}

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

// writeFiles replaces every file in ws with its new content through
// internal/atomicfile, in two phases: first each content is staged
// (written, synced and given the old file's metadata in a temporary file
// beside its target); only when all of them are on disk are they renamed
// over their targets. A failure in the first phase removes the temporary
// files and changes nothing. A failure in the second (rare: the
// temporaries and targets share directories) returns the display paths
// already replaced with a *PartialWriteError.
//
// The files' cross-process locks are held throughout, and each file is
// compared with the content the rewrite was computed from before anything
// is staged: a file another writer changed meanwhile fails the whole
// rewrite as stale instead of having that change overwritten.
//
// A path that is a symbolic link is written through: the file it points
// to gets the new content and the link stays a link. Read-only and
// hard-linked files are refused (see atomicfile). steps replaces the
// staging and the rename for tests.
func writeFiles(ws []fileWrite, steps writeSteps) ([]string, error) {
	stageFile, commitFile := atomicfile.Stage, (*atomicfile.Staged).Commit
	if steps.stage != nil {
		stageFile = steps.stage
	}
	if steps.commit != nil {
		commitFile = steps.commit
	}
	var st []*staged
	byTarget := map[string]*staged{}
	for _, w := range ws {
		target, err := atomicfile.Resolve(w.abs)
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", w.display, err)
		}
		if s := byTarget[target]; s != nil {
			// Two given paths reach the same file (a link and its
			// target): write it once, provided both agree on the result.
			if !bytes.Equal(s.data, w.data) {
				return nil, fmt.Errorf("write %s: it is the same file as %s but the rewrites differ; name only one of them", w.display, s.display[0])
			}
			s.display = append(s.display, w.display)
			continue
		}
		s := &staged{display: []string{w.display}, target: target, src: w.src, data: w.data}
		st = append(st, s)
		byTarget[target] = s
	}
	targets := make([]string, len(st))
	for i, s := range st {
		targets[i] = s.target
	}
	unlock, err := atomicfile.LockAll(targets...)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the files to rewrite: %w", err)
	}
	defer unlock()
	for _, s := range st {
		if err := atomicfile.Writable(s.target, s.display[0]); err != nil {
			return nil, err
		}
		cur, err := os.ReadFile(s.target)
		if err != nil {
			return nil, fmt.Errorf("read %s again before writing: %w", s.display[0], err)
		}
		if !bytes.Equal(cur, s.src) {
			return nil, fmt.Errorf("%s changed while it was being rewritten; run the rewrite again", s.display[0])
		}
	}
	discard := func(from int) {
		for _, s := range st[from:] {
			if s.file != nil {
				s.file.Discard()
			}
		}
	}
	for _, s := range st {
		data := s.data
		f, err := stageFile(s.target, 0o644, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
		if err != nil {
			discard(0)
			return nil, fmt.Errorf("write %s: %w", s.display[0], err)
		}
		s.file = f
	}
	var written []string
	for i, s := range st {
		if err := commitFile(s.file); err != nil {
			var unwritten []string
			discard(i)
			for _, rest := range st[i:] {
				unwritten = append(unwritten, rest.display...)
			}
			err = fmt.Errorf("write %s: %w", s.display[0], err)
			if len(written) == 0 {
				return nil, err
			}
			return written, &PartialWriteError{Written: written, Unwritten: unwritten, Err: err}
		}
		written = append(written, s.display...)
	}
	return written, nil
}
