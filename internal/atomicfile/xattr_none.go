//go:build !linux && !darwin && !freebsd && !netbsd

package atomicfile

import "os"

// copyXattrs does nothing where the system has no extended attributes that
// golang.org/x/sys/unix can copy (OpenBSD, Windows, ...).
func copyXattrs(from string, f *os.File) {}
