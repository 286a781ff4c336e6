// Package atomicfile is gopi's one path for replacing a file's content:
// every write of a user's file (the edit tool in all its modes, write,
// ast_edit) and of gopi's own files (settings, sessions, artifacts) goes
// through it.
//
// A write lands on the file a symbolic link points to (the link stays a
// link). The new content goes to a temporary file beside that target,
// which is synced, given the old file's mode, owner, group and extended
// attributes (as far as the process may set them), then renamed over the
// target: a reader sees the old content or the new one, never a mix, and
// a crash leaves no half-written file.
//
// Two kinds of file are refused rather than replaced: a read-only file
// (no write bit, or one this process may not write), since renaming over
// it would bypass the protection an editor would ask about, and a file
// with more than one hard link, since the rename would silently detach
// this name from the others. Both errors say how to proceed.
//
// Temporary files are named ".gopi-tmp-PID-RANDOM". They are removed on
// every error; the ones still being written when the process is
// interrupted are removed by RemoveTemps, which the CLI calls from its
// signal handling; ones left by a process that was killed outright are
// removed by the next write to their directory (see sweep).
//
// Lock and LockAll serialise a read-modify-write of a file across
// processes (see lock_unix.go).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ReadOnlyError is the refusal to replace a file that is read-only.
type ReadOnlyError struct {
	Path   string
	Mode   fs.FileMode // the file's permission bits
	Reason string      // why it counts as read-only
	Fix    string      // what makes it writable, if that is wanted
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only (%s), so it was left unchanged; if it should be changed, %s and try again", e.Path, e.Reason, e.Fix)
}

// Is makes errors.Is(err, fs.ErrPermission) hold for a ReadOnlyError.
func (e *ReadOnlyError) Is(target error) bool { return target == fs.ErrPermission }

// HardLinkError is the refusal to replace a file that has other hard
// links: the rename would give this name a new file and leave the other
// names with the old content.
type HardLinkError struct {
	Path  string
	Links uint64 // the file's link count
}

func (e *HardLinkError) Error() string {
	return fmt.Sprintf("%s has %d hard links (other names for the same file); replacing it would give this name a new file and leave the other names with the old content, so it was left unchanged. "+
		"To change this name alone, give it its own copy first (cp -p %s %s.copy && mv %s.copy %s) and try again; to change the file under every name, edit it in place outside gopi",
		e.Path, e.Links, e.Path, e.Path, e.Path, e.Path)
}

// WriteFile replaces path with data. An existing file keeps its
// permission bits, owner and group; a new file gets perm. The temporary
// file is removed on every error.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write replaces path with what write writes, streamed into the temporary
// file (for content too large to hold twice in memory). An error from
// write, like any other, removes the temporary file and leaves path as it
// was. Metadata is kept as WriteFile keeps it.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	s, err := Stage(path, perm, write)
	if err != nil {
		return err
	}
	return s.Commit()
}

// Staged is new content written and synced to a temporary file beside its
// target, not yet renamed over it. Several files can be staged first and
// committed together, so that a failure while writing changes none of
// them. Every Staged must be committed or discarded.
type Staged struct {
	path   string // as given
	target string // the file replaced (links followed)
	tmp    string // "" once committed or discarded
}

// Target is the file the commit replaces: path with symbolic links on its
// last element followed.
func (s *Staged) Target() string { return s.target }

// Stage writes what write writes to a temporary file beside path's
// target, with the metadata WriteFile keeps, and syncs it. A read-only
// or hard-linked target is refused (*ReadOnlyError, *HardLinkError), as
// are directories and other files that are not regular. A missing parent
// directory gives an error wrapping fs.ErrNotExist.
func Stage(path string, perm fs.FileMode, write func(io.Writer) error) (*Staged, error) {
	return stage(path, perm, "", write)
}

// WriteFileLike replaces path with data as WriteFile does, except that the
// new file takes its permission bits, owner, group and extended
// attributes from the file at like rather than from the file it replaces:
// it is the content of like moving to path. A read-only or hard-linked
// file at path is still refused.
func WriteFileLike(path string, data []byte, like string) error {
	s, err := stage(path, 0, like, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	return s.Commit()
}

// stage is Stage; a non-empty like names the file whose metadata the new
// content takes.
func stage(path string, perm fs.FileMode, like string, write func(io.Writer) error) (*Staged, error) {
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(target)
	var old fs.FileInfo
	metaFrom := target
	fi, err := os.Stat(target)
	switch {
	case err == nil:
		if err := writable(target, path, fi); err != nil {
			return nil, err
		}
		old = fi
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cannot look at %s before replacing it: %w", path, err)
	}
	if like != "" {
		lfi, err := os.Stat(like)
		if err != nil {
			return nil, fmt.Errorf("cannot look at %s to give %s its mode: %w", like, path, err)
		}
		old, metaFrom = lfi, like
	}
	if old != nil {
		perm = old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	sweep(dir)
	f, err := createTemp(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot create a temporary file beside %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(what string, err error) (*Staged, error) {
		f.Close()
		removeTemp(tmp)
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	if err := write(f); err != nil {
		return fail("cannot write", err)
	}
	if old != nil {
		// Owner first: changing it clears the set-user-ID and set-group-ID
		// bits, which the chmod below puts back.
		keepOwner(f, old)
		copyXattrs(metaFrom, f)
	}
	if err := f.Chmod(perm); err != nil {
		return fail("cannot set the mode of", err)
	}
	if err := f.Sync(); err != nil {
		return fail("cannot sync", err)
	}
	if err := f.Close(); err != nil {
		removeTemp(tmp)
		return nil, fmt.Errorf("cannot close the new content of %s: %w", path, err)
	}
	return &Staged{path: path, target: target, tmp: tmp}, nil
}

// Commit renames the temporary file over the target and syncs the
// directory. On failure the temporary file is removed and the target is
// as it was.
func (s *Staged) Commit() error {
	if s.tmp == "" {
		return fmt.Errorf("the new content of %s was already committed or discarded", s.path)
	}
	tmp := s.tmp
	s.tmp = ""
	if err := os.Rename(tmp, s.target); err != nil {
		removeTemp(tmp)
		return fmt.Errorf("cannot replace %s: %w", s.path, err)
	}
	forgetTemp(tmp)
	syncDir(filepath.Dir(s.target))
	return nil
}

// Discard removes the temporary file; the target is left as it was.
// Discarding a committed Staged does nothing.
func (s *Staged) Discard() {
	if s.tmp != "" {
		removeTemp(s.tmp)
		s.tmp = ""
	}
}

// Writable reports whether the file at path may be replaced, naming it
// display in its errors: a directory, a file that is not regular, a
// read-only file (*ReadOnlyError) and a file with other hard links
// (*HardLinkError) may not. A missing file may (it would be created).
// Tools call it before they compute a change, so that a refusal comes
// before any work; Stage checks again.
func Writable(path, display string) error {
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot look at %s: %w", display, err)
	}
	return writable(target, display, fi)
}

// writable is Writable for the file target that fi describes.
func writable(target, display string, fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return &fs.PathError{Op: "write", Path: display, Err: syscall.EISDIR}
	case !fi.Mode().IsRegular():
		return &NotRegularError{Path: display, Mode: fi.Mode()}
	case kernelFile(target):
		return &KernelFileError{Path: display}
	case fi.Mode().Perm()&0o222 == 0:
		return &ReadOnlyError{Path: display, Mode: fi.Mode().Perm(), Reason: fmt.Sprintf("mode %04o has no write permission", fi.Mode().Perm()),
			Fix: "make it writable first (chmod u+w " + display + ")"}
	}
	if reason, fix := notWritable(target, display); reason != "" {
		return &ReadOnlyError{Path: display, Mode: fi.Mode().Perm(), Reason: reason, Fix: fix}
	}
	if n := linkCount(fi); n > 1 {
		return &HardLinkError{Path: display, Links: n}
	}
	return nil
}

// Resolve returns the file a write to path lands on: path itself, or,
// when its last element is a symbolic link, what the chain of links
// points to, even when that does not exist yet (the write then creates
// it). Links in the directories above are left to the kernel.
func Resolve(path string) (string, error) {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		to, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("cannot follow the symbolic link %s: %w", p, err)
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
	return "", fmt.Errorf("cannot write %s: too many levels of symbolic links; point the link at a file", path)
}

// syncDir flushes a directory's entries after a rename; file systems that
// refuse are left as they are.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// Lock is LockAll for one file.
func Lock(path string) (unlock func(), err error) { return LockAll(path) }
