//go:build unix

package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockBuilder takes the exclusive builder lock of an index: a second
// builder waits here until the first is done (or ctx ends). The wait is
// a blocking flock in a goroutine that owns the file: when ctx ends
// first, it releases the lock as soon as it gets it.
func lockBuilder(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		return func() { f.Close() }, nil
	}
	got := make(chan error)
	abandon := make(chan struct{})
	go func() {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		select {
		case got <- err:
		case <-abandon:
			f.Close()
		}
	}()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, err
		}
		return func() { f.Close() }, nil
	case <-ctx.Done():
		close(abandon)
		return nil, ctx.Err()
	}
}

// lockWatcher takes the watcher lock of an index without waiting:
// ErrWatched when another process holds it.
func lockWatcher(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock the index: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrWatched
		}
		return nil, fmt.Errorf("lock the index: %w", err)
	}
	return func() { f.Close() }, nil
}

// lockIsExclusive: lockBuilder keeps every other builder out, so a build
// may remove the temporary files of builds that died (removeDeadTemps).
const lockIsExclusive = true
