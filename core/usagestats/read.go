package usagestats

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
)

// readInto reads the whole of f (described by fi) into buf's storage,
// grown when too small.
func readInto(f *os.File, fi fs.FileInfo, buf []byte) ([]byte, error) {
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
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
	f, err := os.Open(path)
	if err != nil {
		return nil, buf, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, buf, err
	}
	data, err = readInto(f, fi, buf)
	if err != nil {
		return nil, buf, err
	}
	return data, data[:0], nil
}
