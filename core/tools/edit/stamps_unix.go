//go:build unix

package edit

import (
	"io/fs"
	"syscall"
)

// inodeOf is fi's inode number: a file replaced by rename (as editors
// save) gets a new one even when size and time match.
func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
