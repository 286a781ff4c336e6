package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrInUse is returned by LockRun when another process is running the
// session.
var ErrInUse = errors.New("the session is in use by another gopi process")

// RunLock marks a session file as being run by this process. Appends of
// two processes never corrupt a file (each is written under a lock), but
// two agents continuing one session at once would interleave their turns
// in one branch; the lock lets the second refuse to start.
type RunLock struct {
	f    *os.File
	path string
}

// LockRun takes the run lock of the session file path: a hidden
// ".<name>.lock" beside it, holding the owner's process id. It fails with
// ErrInUse (naming that process) when another process holds it. Release
// drops it. Where flock is unavailable the lock always succeeds.
func LockRun(path string) (*RunLock, error) {
	lp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", path, err)
	}
	ok, err := tryLockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock session %s: %w", path, err)
	}
	if !ok {
		data := make([]byte, 32)
		n, _ := f.ReadAt(data, 0)
		f.Close()
		owner := strings.TrimSpace(string(data[:n]))
		if _, err := strconv.Atoi(owner); err == nil {
			return nil, fmt.Errorf("%w (pid %s): wait for it to finish, or start a new branch of it with --fork", ErrInUse, owner)
		}
		return nil, fmt.Errorf("%w: wait for it to finish, or start a new branch of it with --fork", ErrInUse)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &RunLock{f: f, path: lp}, nil
}

// Release drops the lock and removes its file.
func (l *RunLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
