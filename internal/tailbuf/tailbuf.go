// Package tailbuf keeps the end of a stream: the last bytes a child
// process wrote to its standard error, for the error that reports its
// death.
package tailbuf

import "sync"

// Buffer is an io.Writer that keeps the last Max bytes written to it. It
// is safe for concurrent use; the zero value keeps nothing until Max is
// set.
type Buffer struct {
	Max int

	mu  sync.Mutex
	buf []byte
}

// New returns a Buffer keeping the last max bytes.
func New(max int) *Buffer { return &Buffer{Max: max} }

// Write keeps the end of what p adds; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - max(b.Max, 0); over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// String returns the bytes kept.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
