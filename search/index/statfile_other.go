//go:build !linux

package index

import "os"

// statFile reads a file's state now; ok is false when it is gone or is
// no longer a regular file.
func statFile(abs string) (fileState, bool) {
	info, err := os.Lstat(abs)
	if err != nil || !info.Mode().IsRegular() {
		return fileState{}, false
	}
	return fileState{size: info.Size(), mtime: info.ModTime().UnixNano(), ino: inode(info)}, true
}
