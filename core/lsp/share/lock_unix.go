//go:build unix

package share

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// supported reports whether this platform can share servers.
const supported = true

// tryLock takes the lock file at path without waiting: ok is false when
// another process holds it. A lock taken on a file that was removed or
// replaced meanwhile (its holder cleaned up) is let go and reported as
// not taken, so that two processes never both hold "the" lock.
func tryLock(path string) (f *os.File, ok bool, err error) {
	f, err = os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("lock %s: %w", path, err)
	}
	held, err1 := f.Stat()
	now, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, now) {
		f.Close()
		return nil, false, nil
	}
	return f, true, nil
}

// privateDir makes dir (mode 0700) and checks that it is a directory of
// this user's that nobody else can enter: a socket there is reached by
// this user alone.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s can be entered by other users (mode %o)", dir, fi.Mode().Perm())
	case ok && int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s belongs to another user (uid %d)", dir, st.Uid)
	}
	return nil
}
