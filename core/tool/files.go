package tool

import (
	"context"
	"io/fs"
	"os"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Files is where the file tools (read, edit, write) get and put the
// contents of text files. A front end that owns the files — an editor
// speaking the Agent Client Protocol, whose unsaved buffers are newer
// than the disk and whose edits should go through its own buffers — sets
// Env.Files; nil means the local disk. Everything else the tools do
// (resolving paths, stat, listing directories, search engines) stays on
// the local disk.
type Files interface {
	// ReadFile returns the whole content of the file at abs. A missing
	// file is an error wrapping fs.ErrNotExist.
	ReadFile(ctx context.Context, abs string) ([]byte, error)
	// WriteFile replaces the content of the file at abs, creating it with
	// perm when it is new. The parent directory exists.
	WriteFile(ctx context.Context, abs string, data []byte, perm fs.FileMode) error
}

// ReadFile reads a whole file through Files, or from the local disk. On
// the local disk a file that is neither regular nor a directory (a named
// pipe, socket or device) is refused before it is opened, with an
// *atomicfile.NotRegularError: opening a named pipe blocks until a
// writer comes, and a device may never end.
func (e *Env) ReadFile(ctx context.Context, abs string) ([]byte, error) {
	if e.Files != nil {
		return e.Files.ReadFile(ctx, abs)
	}
	if err := atomicfile.CheckRegular(abs, e.DisplayPath(abs)); err != nil {
		return nil, err
	}
	return os.ReadFile(abs)
}

// WriteFile replaces a file through Files, or on the local disk with
// WriteFileAtomic.
func (e *Env) WriteFile(ctx context.Context, abs string, data []byte, perm fs.FileMode) error {
	if e.Files != nil {
		return e.Files.WriteFile(ctx, abs, data, perm)
	}
	return WriteFileAtomic(abs, data, perm)
}
