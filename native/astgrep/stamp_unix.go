//go:build unix && !linux

package astgrep

import (
	"os"
	"syscall"
	"time"
)

// inodeOf returns a file's inode and device numbers; the status-change
// time is left unknown here (stamps then never match the library's own,
// so the cache misses rather than serving stale content).
func inodeOf(fi os.FileInfo) (ino, dev uint64, ctime time.Time) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), uint64(st.Dev), time.Time{}
	}
	return 0, 0, time.Time{}
}
