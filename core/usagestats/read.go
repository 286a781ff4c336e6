package usagestats

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// readInto reads the whole of f (described by fi) into buf's storage,
// grown when too small.
func readInto(f *os.File, fi fs.FileInfo, buf []byte) ([]byte, error) {
	size := int(fi.Size()) + 1 // one more: a file that grew is still read to its end
	if cap(buf) < size {
		buf = make([]byte, 0, size+size/4)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], nil
		}
		if err != nil {
			return nil, err
		}
		if n == len(buf) {
			buf = slices.Grow(buf[:n], n)
			buf = buf[:cap(buf)]
		}
	}
}

// openFile reads a session file into buf (grown when too small) and
// returns its content and buf for the next file. (Mapping the files
// instead was measured slower: unmapping costs more than the copy.)
func openFile(path string, buf []byte) (data, next []byte, err error) {
	// A file that is not regular is refused before it is opened: opening
	// a named pipe waits for a writer that may never come.
	if fi, err := os.Stat(path); err != nil {
		return nil, buf, err
	} else if !fi.Mode().IsRegular() {
		return nil, buf, &atomicfile.NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, buf, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, buf, err
	}
	if !fi.Mode().IsRegular() { // replaced since the look above
		return nil, buf, &atomicfile.NotRegularError{Path: path, Mode: fi.Mode()}
	}
	data, err = readInto(f, fi, buf)
	if err != nil {
		return nil, buf, err
	}
	return data, data[:0], nil
}

// unreadableReason says in a few words why the session file at path
// could not be read (err from openFile).
func unreadableReason(path string, err error) string {
	var nr *atomicfile.NotRegularError
	switch {
	case errors.As(err, &nr):
		return "not a regular file: " + atomicfile.Kind(nr.Mode)
	case errors.Is(err, fs.ErrNotExist):
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "a symbolic link to a missing file"
		}
		return "it was removed while being read"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return fmt.Sprint(err)
}
