package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// SyncPolicy says when appended entries are forced to stable storage.
type SyncPolicy int

const (
	// SyncAlways fsyncs after every appended entry (the default): a crash
	// loses at most the entry being written.
	SyncAlways SyncPolicy = iota
	// SyncOnFlush fsyncs only in Flush and Close (and after rewrites, which
	// always sync): faster, a crash may lose the latest entries.
	SyncOnFlush
)

// fileMode is the permission of new session files: they hold whole
// conversations, tool output included.
const fileMode = 0o600

// diskFile is one session file on disk and the protocol every writer
// follows, so that two processes (gopi or a second gopi) appending to it
// never interleave or lose lines:
//
//   - every change happens under an exclusive flock on the file;
//   - after locking, the writer checks that the inode it locked is still
//     the one at the path (a rewrite by another process renames a new file
//     over it) and reopens when not;
//   - an append is one write of one line; if the file does not end with a
//     newline (a writer was killed mid-line), the write starts with one, so
//     the torn line stays a line of its own;
//   - a rewrite re-reads the file under the lock and merges (see
//     Manager.rewrite), then replaces it with atomicfile.WriteFile (temp
//     file beside it, fsync, rename).
type diskFile struct {
	path string
	f    *os.File // open O_RDWR|O_APPEND between operations; nil when not open
	sync SyncPolicy
}

// lock opens the file if needed and locks it; the error wraps
// fs.ErrNotExist when the file is gone.
func (d *diskFile) lock() error {
	for range 100 {
		if d.f == nil {
			f, err := os.OpenFile(d.path, os.O_RDWR|os.O_APPEND, 0)
			if err != nil {
				return fmt.Errorf("open session file: %w", err)
			}
			d.f = f
		}
		if err := lockFile(d.f); err != nil {
			return fmt.Errorf("lock session file %s: %w", d.path, err)
		}
		held, err1 := d.f.Stat()
		now, err2 := os.Stat(d.path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return nil
		}
		d.closeFile()
		if err2 != nil {
			return fmt.Errorf("session file: %w", err2)
		}
	}
	return fmt.Errorf("lock session file %s: it keeps being replaced", d.path)
}

func (d *diskFile) unlock() {
	if d.f != nil {
		unlockFile(d.f)
	}
}

func (d *diskFile) closeFile() error {
	if d.f == nil {
		return nil
	}
	unlockFile(d.f)
	err := d.f.Close()
	d.f = nil
	return err
}

// exists reports whether the file is on disk.
func (d *diskFile) exists() bool {
	_, err := os.Stat(d.path)
	return err == nil
}

// appendLine appends one line (without its newline) under the lock.
func (d *diskFile) appendLine(line []byte) error {
	if err := d.lock(); err != nil {
		return err
	}
	defer d.unlock()
	fi, err := d.f.Stat()
	if err != nil {
		return fmt.Errorf("append to %s: %w", d.path, err)
	}
	buf := make([]byte, 0, len(line)+2)
	if size := fi.Size(); size > 0 {
		var last [1]byte
		if _, err := d.f.ReadAt(last[:], size-1); err != nil {
			return fmt.Errorf("append to %s: %w", d.path, err)
		}
		if last[0] != '\n' {
			buf = append(buf, '\n')
		}
	}
	buf = append(append(buf, line...), '\n')
	if _, err := d.f.Write(buf); err != nil {
		return fmt.Errorf("append to %s: %w", d.path, err)
	}
	if d.sync == SyncAlways {
		if err := d.f.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", d.path, err)
		}
	}
	return nil
}

// rewrite replaces the file with build(current), where current is the
// file's content read under the lock (nil when the file does not exist).
func (d *diskFile) rewrite(build func(current []byte) ([]byte, error)) error {
	var current []byte
	err := d.lock()
	switch {
	case err == nil:
		defer d.closeFile() // the locked inode is replaced below: reopen next time
		if current, err = os.ReadFile(d.path); err != nil {
			return fmt.Errorf("read %s: %w", d.path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(d.path), 0o755); err != nil {
			return fmt.Errorf("create session directory: %w", err)
		}
	default:
		return err
	}
	data, err := build(current)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(d.path, data, fileMode); err != nil {
		return fmt.Errorf("rewrite session file: %w", err)
	}
	return nil
}

// flush forces appended data to stable storage.
func (d *diskFile) flush() error {
	if d.f == nil {
		return nil
	}
	if err := d.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", d.path, err)
	}
	return nil
}
