//go:build !unix

package astgrep

import (
	"os"
	"time"
)

// inodeOf returns zeros: the native side's stamps have no inode or
// status-change time here.
func inodeOf(fi os.FileInfo) (ino, dev uint64, ctime time.Time) { return 0, 0, time.Time{} }
