package tool

import (
	"io/fs"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// WriteFileAtomic replaces path with data through the project's one write
// path (internal/atomicfile): a temporary file in the same directory,
// synced and renamed over path, so readers see the old or the new content,
// never a mix. An existing file's permission bits are kept; a new file
// gets perm.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return atomicfile.WriteFile(path, data, perm)
}
