//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// errBusy is acquire's answer when it was told not to wait.
var errBusy = errors.New("lock is held")

// fileID names an inode.
type fileID struct{ dev, ino uint64 }

// LockAll takes the locks that serialise a read-modify-write of each of
// paths across processes (and across goroutines: a lock belongs to an
// open file, not to the process), waiting as long as another holder keeps
// one. The caller reads the files, computes and writes them, then calls
// unlock. Everything in gopi that rewrites a file holds its lock meanwhile,
// so two edits of one file run one after the other, the second reading
// what the first wrote.
//
// The lock of an existing file is an flock on the file itself. Since a
// write renames a new inode into place, a waiter that wakes up to find the
// name now on another inode drops the old one and locks the new. The lock
// of a missing file is the lock of its directory, so two creations of one
// file are serialised too; a missing directory is created first (and
// removed again on unlock if it is still empty and no one else waits for
// it), because a lock on a higher directory would stop guarding the file
// as soon as its holder created the directories below. The locks are taken
// in path order, and a holder that finds one of the later ones busy lets
// all of them go and waits for that one alone before trying again, so that
// two callers locking overlapping sets cannot wait on each other forever.
func LockAll(paths ...string) (unlock func(), err error) {
	var targets []string
	for _, p := range paths {
		t, err := Resolve(p)
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	slices.Sort(targets)
	targets = slices.Compact(targets)
	var made []string // directories created for missing files, parents first
	for {
		var held []*os.File
		have := map[fileID]bool{}
		busy := -1
		for i, t := range targets {
			f, err := acquire(t, i == 0, have, &made)
			if errors.Is(err, errBusy) {
				busy = i
				break
			}
			if err != nil {
				release(held)
				removeMade(made)
				return nil, err
			}
			if f != nil {
				held = append(held, f)
			}
		}
		if busy < 0 {
			return func() {
				release(held)
				removeMade(made)
			}, nil
		}
		release(held)
		f, err := acquire(targets[busy], true, map[fileID]bool{}, &made)
		if err != nil {
			removeMade(made)
			return nil, err
		}
		release([]*os.File{f})
	}
}

// removeMade removes the directories LockAll created, deepest first, when
// they are still empty and no one holds or waits for their lock (a waiter
// that gets the lock of a removed directory finds that it no longer
// guards its file and looks again).
func removeMade(made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		f, err := os.Open(made[i])
		if err != nil {
			continue
		}
		if flock(f, false) == nil {
			os.Remove(made[i])
		}
		f.Close()
	}
}

// mkdirs creates dir and its missing parents, recording each one created.
func mkdirs(dir string, made *[]string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if up := filepath.Dir(dir); up != dir {
		if err := mkdirs(up, made); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return nil // created by someone else meanwhile
		}
		return fmt.Errorf("cannot create the directory %s: %w", dir, err)
	}
	*made = append(*made, dir)
	return nil
}

// release lets locks go.
func release(held []*os.File) {
	for _, f := range held {
		if f != nil {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}
	}
}

// lockResource is what locks target: the file itself when it is a regular
// file this process can open, else its directory (which may be missing).
// A target that is a directory has nothing to lock ("").
func lockResource(target string) string {
	if fi, err := os.Stat(target); err == nil {
		if fi.IsDir() {
			return ""
		}
		if fi.Mode().IsRegular() {
			if f, err := os.Open(target); err == nil {
				f.Close()
				return target
			}
		}
	}
	return filepath.Dir(target)
}

// acquire locks target's resource, waiting when wait is set (else failing
// with errBusy), and creates a missing directory to lock (recorded in
// made). Resources in have are already held by the caller and are not
// locked twice (two open files of one inode would exclude each other). It
// returns nil when there is nothing (more) to lock.
func acquire(target string, wait bool, have map[fileID]bool, made *[]string) (*os.File, error) {
	for {
		res := lockResource(target)
		if res == "" {
			return nil, nil
		}
		f, err := os.Open(res)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, nil // a directory we cannot open: no lock to take
			}
			if res != filepath.Dir(target) {
				continue // it went away meanwhile: look again
			}
			if mkdirs(res, made) != nil {
				// The directory cannot be created (a dangling link, a
				// file in the way, no permission): there is nothing to
				// lock, and the write will fail with its own error.
				return nil, nil
			}
			continue // created: lock it
		}
		id, ok := idOf(f)
		if ok && have[id] {
			f.Close()
			return nil, nil
		}
		if err := flock(f, wait); err != nil {
			f.Close()
			return nil, err
		}
		// Holding the lock, check that it still guards target: the file
		// may have been replaced (a new inode) or created meanwhile.
		if lockResource(target) == res && sameFile(f, res) {
			if ok {
				have[id] = true
			}
			return f, nil
		}
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

// flock takes an exclusive flock on f.
func flock(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errBusy
		case !errors.Is(err, syscall.EINTR):
			return err
		}
	}
}

// idOf returns the inode of an open file.
func idOf(f *os.File) (fileID, bool) {
	fi, err := f.Stat()
	if err != nil {
		return fileID{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// sameFile reports whether the open file f is still what path names.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
