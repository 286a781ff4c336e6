//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no Unix owner.
func keepOwner(f *os.File, old fs.FileInfo) {}

// notWritable relies on the permission bits alone here.
func notWritable(path, display string) (reason, fix string) { return "", "" }

// linkCount cannot be known here; every file counts as having one link.
func linkCount(fi fs.FileInfo) uint64 { return 1 }

// processAlive cannot ask about other processes here: every process
// counts as alive, so only StaleAge clears leftovers.
func processAlive(pid int) bool { return true }
