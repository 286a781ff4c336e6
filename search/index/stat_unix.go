//go:build unix

package index

import (
	"io/fs"
	"syscall"
)

// inode is the file's inode number, 0 where the system has none.
func inode(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Ino)
	}
	return 0
}
