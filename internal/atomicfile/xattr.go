//go:build linux || darwin || freebsd || netbsd

package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// copyXattrs copies the extended attributes of the file at from to f, as
// far as the file system and the process allow (security labels may be
// refused); attributes that cannot be read or set are skipped.
func copyXattrs(from string, f *os.File) {
	size, err := unix.Listxattr(from, nil)
	if err != nil || size <= 0 {
		return
	}
	buf := make([]byte, size)
	size, err = unix.Listxattr(from, buf)
	if err != nil {
		return
	}
	start := 0
	for i := 0; i < size; i++ {
		if buf[i] != 0 {
			continue
		}
		name := string(buf[start:i])
		start = i + 1
		if name == "" {
			continue
		}
		n, err := unix.Getxattr(from, name, nil)
		if err != nil {
			continue
		}
		val := make([]byte, n)
		if n, err = unix.Getxattr(from, name, val); err != nil {
			continue
		}
		unix.Fsetxattr(int(f.Fd()), name, val[:n], 0)
	}
}
