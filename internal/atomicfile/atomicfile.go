// Package atomicfile is gopi's one path for replacing a file's content: a
// temporary file beside the target, written, synced and renamed over it, so
// a reader sees the old content or the new one, never a mix, and a crash
// leaves no half-written file. It sits below every package that writes
// files (core/config, core/tool and the tools built on it).
package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data. An existing file's permission bits
// are kept; a new file gets perm. The temporary file is removed on every
// error.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write replaces path with what write writes, streamed into the temporary
// file (for content too large to hold twice in memory). An error from
// write, like any other, removes the temporary file and leaves path as it
// was. Permissions are kept as WriteFile keeps them.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	tmp := f.Name()
	cleanup := func() { os.Remove(tmp) }
	if err := write(f); err != nil {
		f.Close()
		cleanup()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		cleanup()
		return fmt.Errorf("set mode of %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		cleanup()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		cleanup()
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		cleanup()
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}
