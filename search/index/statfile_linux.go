package index

import "syscall"

// statFile reads a file's state now; ok is false when it is gone or is
// no longer a regular file. A bare lstat: every query makes one per
// indexed file, so no FileInfo is built.
func statFile(abs string) (fileState, bool) {
	var st syscall.Stat_t
	err := retryEINTR(func() error { return syscall.Lstat(abs, &st) })
	return regularState(&st, err)
}

// fstatFile is statFile through an open descriptor.
func fstatFile(fd int) (fileState, bool) {
	var st syscall.Stat_t
	err := retryEINTR(func() error { return syscall.Fstat(fd, &st) })
	return regularState(&st, err)
}

// retryEINTR runs call again while a signal interrupts it.
func retryEINTR(call func() error) error {
	for {
		if err := call(); err != syscall.EINTR {
			return err
		}
	}
}

// regularState is the state a stat call found (err: its error), of a
// regular file only.
func regularState(st *syscall.Stat_t, err error) (fileState, bool) {
	if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fileState{}, false
	}
	sec, nsec := st.Mtim.Unix()
	return fileState{size: st.Size, mtime: sec*1e9 + nsec, ino: int64(st.Ino)}, true
}
