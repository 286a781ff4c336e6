package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrEmpty reports a session file with nothing in it.
var ErrEmpty = errEmpty

// OpenSnapshot loads the session file at path for reading only: older
// versions are migrated in memory, nothing is ever written (not even a
// migration), and the Manager it returns behaves like an in-memory session
// whose appends stay in memory. It is what a viewer or an exporter uses on
// a file that another process may be running.
//
// Unlike Open it refuses a path that does not exist (an error wrapping
// fs.ErrNotExist), an empty file (ErrEmpty) and anything that is not a
// regular file, such as a FIFO or /dev/zero, which could block or never
// end. The file is read under the same lock writers take, so a snapshot
// never holds half an append.
func OpenSnapshot(path string, opts Options) (*Manager, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", path, err)
	}
	// Checked before opening: opening a FIFO would wait for a writer.
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("open session %s: not a regular file", abs)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return nil, fmt.Errorf("open session %s: %w", abs, err)
	}
	data, err := io.ReadAll(f)
	unlockFile(f)
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", abs, err)
	}
	if opts.Dir == "" {
		opts.Dir = filepath.Dir(abs)
	}
	m := newManager(opts)
	p, err := parseFile(data, m.blobs, m.opts.Rand)
	if err != nil {
		if errors.Is(err, errEmpty) {
			return nil, fmt.Errorf("open session %s: %w", abs, ErrEmpty)
		}
		return nil, fmt.Errorf("open session %s: %w", abs, err)
	}
	m.load(p)
	return m, nil
}
