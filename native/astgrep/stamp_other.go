//go:build !unix

package astgrep

import "os"

// inodeOf returns 0, 0: the native side's stamps have no inode here.
func inodeOf(fi os.FileInfo) (ino, dev uint64) { return 0, 0 }
