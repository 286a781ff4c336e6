//go:build !unix

package session

import "os"

// lockFile is a no-op where flock is unavailable: appends by two processes
// to one session file are then not coordinated.
func lockFile(f *os.File) error { return nil }

// unlockFile is a no-op where flock is unavailable.
func unlockFile(f *os.File) error { return nil }

// tryLockFile always succeeds where flock is unavailable.
func tryLockFile(f *os.File) (bool, error) { return true, nil }
