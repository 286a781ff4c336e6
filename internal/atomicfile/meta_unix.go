//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// keepOwner gives f the owner and group of old. Only root may give a file
// away; others keep at least the group when they belong to it. What cannot
// be kept is left to the process's own user and group.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if f.Chown(int(st.Uid), int(st.Gid)) != nil {
		f.Chown(-1, int(st.Gid))
	}
}

// notWritable says why this process may not write the file at path, and
// what would change that ("" if it may): access(2) asks the kernel, which
// knows the process's users and groups, the immutable flag and the
// mount's read-only flag.
func notWritable(path, display string) (reason, fix string) {
	err := unix.Access(path, unix.W_OK)
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, unix.EROFS):
		return "it is on a read-only file system", "remount that file system read-write"
	case errors.Is(err, unix.EPERM):
		return "it is marked immutable", "clear the flag first (chattr -i " + display + ")"
	case errors.Is(err, unix.EACCES):
		return "this user has no write permission on it", "have its owner make it writable for this user (chmod or chown)"
	}
	return "", ""
}

// linkCount is the number of hard links of the file fi describes.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// processAlive reports whether a process with id pid exists (one of
// another user counts too).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
