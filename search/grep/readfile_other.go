//go:build !unix

package grep

import (
	"context"
	"io"
	"os"
)

// readWhole reads the file at path into buf (reusing its capacity) and
// returns the filled slice; sizeHint (0 when unknown) sizes the buffer.
func readWhole(path string, sizeHint int64, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if want := int(sizeHint); cap(buf) < want+1 {
		buf = make([]byte, 0, want+want/8+512)
	}
	buf, err = readAll(f, buf[:0])
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// readUpTo reads the file at path into buf (reusing its capacity) while it
// holds at most limit bytes. When the file ends within limit, rest is nil;
// otherwise data holds its first bytes and rest is the open file, positioned
// after them, for the caller to read on and close.
func readUpTo(path string, limit int, buf []byte) (data []byte, rest *os.File, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	buf = buf[:0]
	for {
		if len(buf) > limit {
			return buf, f, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			f.Close()
			return buf, nil, nil
		}
		if err != nil {
			f.Close()
			return nil, nil, err
		}
	}
}

// openSpecial opens a named special file for reading.
func openSpecial(_ context.Context, path string) (*os.File, error) { return os.Open(path) }
