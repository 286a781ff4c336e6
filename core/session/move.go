package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MoveTo moves the session to another working directory: the header's cwd
// becomes cwd and the file (with its artifacts directory, when there is
// one) moves into dir under the same name. The moves are renames, so
// nothing is copied and a crash leaves the file whole in one place or the
// other; when the second rename fails the first is undone. The file is
// then rewritten (atomically) with the new header. A file not written yet
// is only given its new place. An in-memory session just takes the cwd.
// It fails when dir already holds a file of that name, and across file
// systems (rename cannot cross them).
func (m *Manager) MoveTo(dir, cwd string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	setCwd := func() {
		m.header.Cwd = cwd
		if m.headerRaw != nil {
			m.headerRaw = objSet(m.headerRaw, "cwd", quoted(cwd))
		}
	}
	if m.disk == nil {
		setCwd()
		return nil
	}
	if m.err != nil {
		return m.err
	}
	oldPath := m.disk.path
	newPath := filepath.Join(dir, filepath.Base(oldPath))
	if newPath != oldPath {
		if err := m.moveFiles(oldPath, newPath); err != nil {
			return err
		}
	}
	setCwd()
	if !m.onDisk || !m.disk.exists() {
		return nil
	}
	return m.latch(m.rewrite())
}

// moveFiles renames the session file and its artifacts directory from
// oldPath to newPath (see MoveTo). m.mu is held.
func (m *Manager) moveFiles(oldPath, newPath string) error {
	if err := os.MkdirAll(filepath.Dir(newPath), 0o700); err != nil {
		return fmt.Errorf("move session: %w", err)
	}
	if _, err := os.Lstat(newPath); err == nil {
		return fmt.Errorf("move session: %s already exists; nothing was moved", newPath)
	}
	if err := m.disk.flush(); err != nil {
		return m.latch(err)
	}
	if err := m.disk.closeFile(); err != nil {
		return fmt.Errorf("move session: %w", err)
	}
	moved := false
	if m.disk.exists() {
		if err := os.Rename(oldPath, newPath); err != nil {
			return fmt.Errorf("move session: %w (nothing was moved)", err)
		}
		moved = true
	}
	oldArt, newArt := strings.TrimSuffix(oldPath, ".jsonl"), strings.TrimSuffix(newPath, ".jsonl")
	if fi, err := os.Stat(oldArt); err == nil && fi.IsDir() {
		if err := os.Rename(oldArt, newArt); err != nil {
			if moved {
				if rerr := os.Rename(newPath, oldPath); rerr != nil {
					return fmt.Errorf("move session: artifacts: %w; putting the file back failed too: %v (it is at %s)", err, rerr, newPath)
				}
			}
			return fmt.Errorf("move session: artifacts: %w (nothing was moved)", err)
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("move session: %w", err)
	}
	m.disk.path = newPath
	m.artifacts = nil // made again for the new directory
	return nil
}
