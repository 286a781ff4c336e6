//go:build !unix

package index

import "io/fs"

// inode is 0: the system gives no inode numbers here (size and time
// still tell a change).
func inode(fs.FileInfo) int64 { return 0 }
