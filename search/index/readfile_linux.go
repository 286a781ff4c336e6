package index

import (
	"path/filepath"
	"syscall"
)

// read returns a listed file's state and, when it is to be indexed, its
// text (in the reader's buffer, valid until the next read); large is
// true for a file to be read in chunks instead (readLarge). ok is false
// when the file is gone or is not a regular file. The file is opened
// once and stat'ed through its descriptor before and after the read
// (five system calls, where a stat of the path, os.ReadFile and a second
// stat of the path took seven and allocated the text).
func (r *fileReader) read(o *Options, rel string) (st fileState, ok bool, text []byte, large bool) {
	abs := filepath.Join(o.Root, filepath.FromSlash(rel))
	fd, err := openRegular(abs)
	if err != nil {
		// Gone, a symbolic link, or unreadable: a regular file still
		// there is listed and searched directly.
		st, ok := statFile(abs)
		return st, ok, nil, false
	}
	defer syscall.Close(fd)
	before, ok := fstatFile(fd)
	if !ok {
		return fileState{}, false, nil, false
	}
	if o.afterStat != nil {
		o.afterStat(rel)
	}
	if before.size > o.maxFileSize() {
		return before, true, nil, false
	}
	if before.size > wholeReadMax {
		return before, true, nil, true
	}
	text, err = r.readFD(fd, before.size)
	if err != nil {
		return before, true, nil, false
	}
	if after, ok := fstatFile(fd); !ok || after != before || int64(len(text)) != before.size {
		before.mtime = -1 // changed under us: never trusted
		return before, true, nil, false
	}
	return before, true, text, false
}

// openRegular opens abs for reading without following a final symbolic
// link and without blocking on a FIFO (fstatFile then refuses both).
func openRegular(abs string) (fd int, err error) {
	err = retryEINTR(func() error {
		fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

// readFD reads size bytes of fd into the reader's buffer, fewer when the
// file ends sooner (the caller's second fstat sees a file that changed
// size, so no read is spent looking for its end).
func (r *fileReader) readFD(fd int, size int64) ([]byte, error) {
	if r.buf == nil || int64(cap(r.buf)) < size {
		r.buf = make([]byte, max(size+size/4, 64<<10)) // never nil: an empty file reads as empty text
	}
	buf := r.buf[:size]
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return buf[:n], nil
}
