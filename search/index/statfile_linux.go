package index

import "syscall"

// statFile reads a file's state now; ok is false when it is gone or is
// no longer a regular file. A bare lstat: every query makes one per
// indexed file, so no FileInfo is built.
func statFile(abs string) (fileState, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(abs, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return fileState{}, false
		}
		break
	}
	sec, nsec := st.Mtim.Unix()
	return fileState{size: st.Size, mtime: sec*1e9 + nsec, ino: int64(st.Ino)}, true
}
