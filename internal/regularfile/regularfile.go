// Package regularfile reads files that must be regular ones: a named pipe,
// socket, device or directory found where a configuration or manifest file
// is expected (a cloned or downloaded tree can hold one) is an error,
// reported without waiting on it, since opening a named pipe waits for a
// writer for ever.
package regularfile

import (
	"fmt"
	"io"
	"os"
)

// Read returns the contents of the file at path, links followed, when it
// is a regular file; anything else is an error naming the path and what
// it is. A missing file's error satisfies errors.Is(err, fs.ErrNotExist).
func Read(path string) ([]byte, error) { return ReadPrefix(path, -1) }

// ReadPrefix is Read returning at most max bytes, the file's first (all
// of it when max < 0): for a small file whose size nothing bounds.
func ReadPrefix(path string, max int64) ([]byte, error) {
	f, _, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max >= 0 {
		return io.ReadAll(io.LimitReader(f, max))
	}
	return io.ReadAll(f)
}

// Open opens the file at path for reading when it is a regular file, and
// returns its stat; anything else is an error, as for Read.
//
// The path is checked before it is opened (a device or a named pipe is
// never opened: opening a pipe would wait for a writer, or take from one
// the data a later reader expected), then opened without waiting
// (O_NONBLOCK where there is one) and checked again on the open file: a
// file swapped for a named pipe between the two is refused, not waited
// on.
func Open(path string) (*os.File, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(path, fi)
	}
	return openChecked(path)
}

// openChecked is Open's second half: open without waiting, check the
// open file.
func openChecked(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

func notRegular(path string, fi os.FileInfo) error {
	return fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
}
