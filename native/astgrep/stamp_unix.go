//go:build unix

package astgrep

import (
	"os"
	"syscall"
)

// inodeOf returns a file's inode and device numbers.
func inodeOf(fi os.FileInfo) (ino, dev uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), uint64(st.Dev)
	}
	return 0, 0
}
