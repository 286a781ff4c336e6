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
	fi, err := os.Stat(abs)
	if err != nil {
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
	data, err := readAllSized(f, fi.Size())
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

// readAllSized reads a file expected to hold size bytes in one allocation
// (io.ReadAll would copy a 50 MB session several times as it grows), and
// still reads whatever is there if the file grew or shrank meanwhile.
func readAllSized(f *os.File, size int64) ([]byte, error) {
	buf := make([]byte, 0, size+1)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}
