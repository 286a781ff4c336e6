//go:build unix

package grep

import (
	"context"
	"io/fs"
	"os"
	"syscall"
)

// readWhole reads the file at path into buf (reusing its capacity) and
// returns the filled slice. sizeHint is the size the scan saw (0 when
// unknown); it sizes the buffer and lets a short read that has already
// delivered at least that many bytes count as end of file, which saves the
// extra zero-length read per file. Files that report a size of 0 but have
// content (procfs and the like) are read until a read returns nothing.
//
// It talks to the kernel directly instead of through os.File: for tens of
// thousands of small files the poller registration and the finalizer that
// os.Open sets up cost more than the search itself.
func readWhole(path string, sizeHint int64, buf []byte) ([]byte, error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	want := int(sizeHint)
	if cap(buf) < want+1 {
		buf = make([]byte, 0, want+want/8+512)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := buf[len(buf):cap(buf)]
		n, err := syscall.Read(fd, room)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n == 0 || (n < len(room) && want > 0 && len(buf) >= want) {
			return buf, nil
		}
	}
}

// readUpTo reads the file at path into buf (reusing its capacity) while it
// holds at most limit bytes, for a file whose size the walk did not ask
// for: one open, reads until one returns nothing, one close. When the file
// ends within limit, rest is nil; otherwise data holds its first bytes and
// rest is the open file, positioned after them, for the caller to read on
// and close.
func readUpTo(path string, limit int, buf []byte) (data []byte, rest *os.File, err error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if cap(buf) < 16<<10 {
		buf = make([]byte, 0, 16<<10)
	}
	buf = buf[:0]
	for {
		if len(buf) > limit {
			return buf, os.NewFile(uintptr(fd), path), nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return nil, nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			syscall.Close(fd)
			return buf, nil, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// openRetry opens path read-only, retrying when a signal interrupts it.
//
// O_NONBLOCK changes nothing for files on ordinary filesystems, but keeps a
// search from hanging on pseudo-files that look regular and block when
// read (/proc/kmsg when searching from /) or on a FIFO that appeared after
// the scan: their open or read answers at once (EAGAIN: the file is
// counted as unreadable and skipped, or empty) instead of waiting forever.
func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// openSpecial opens a named special file for reading. Opening a FIFO
// blocks until a writer opens it; when ctx ends first (a --timeout, a
// cancelled tool call), the wait is ended by opening the FIFO for writing
// ourselves, and the context's error is returned, so no goroutine stays
// blocked.
func openSpecial(ctx context.Context, path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil || info.Mode()&fs.ModeNamedPipe == 0 || ctx.Done() == nil {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		// A reader is waiting, so a non-blocking open for writing succeeds
		// and lets the reader's open return.
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		if o := <-ch; o.f != nil {
			o.f.Close()
		}
		return nil, ctx.Err()
	}
}
