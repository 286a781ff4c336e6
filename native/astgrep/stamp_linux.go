package astgrep

import (
	"os"
	"syscall"
	"time"
)

// inodeOf returns a file's inode and device numbers and its status-change
// time.
func inodeOf(fi os.FileInfo) (ino, dev uint64, ctime time.Time) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), uint64(st.Dev), time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	}
	return 0, 0, time.Time{}
}
