package applypatch

import (
	"io/fs"
	"maps"
	"path"
	"time"
)

// memFS is an in-memory FS for tests: files by absolute slash path;
// directories exist implicitly as prefixes or explicitly in dirs. Files
// in readOnly are refused by CanReplace and CanRemove; modes holds the
// mode of files that have one other than 0644, which WriteMoved carries
// to the destination.
type memFS struct {
	files    map[string]string
	dirs     map[string]bool
	readOnly map[string]bool
	modes    map[string]fs.FileMode
}

func newMemFS(files map[string]string) *memFS {
	m := &memFS{files: maps.Clone(files), dirs: map[string]bool{"/": true}, readOnly: map[string]bool{}, modes: map[string]fs.FileMode{}}
	if m.files == nil {
		m.files = map[string]string{}
	}
	for p := range m.files {
		for d := path.Dir(p); d != "/"; d = path.Dir(d) {
			m.dirs[d] = true
		}
	}
	return m
}

// Abs resolves a relative path under /w, the working directory of the
// tests.
func (m *memFS) Abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join("/w", p)
}

func (m *memFS) ReadFile(p string) ([]byte, error) {
	s, ok := m.files[p]
	if !ok {
		if m.dirs[p] {
			return nil, &fs.PathError{Op: "read", Path: p, Err: errIsDir}
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	return []byte(s), nil
}

func (m *memFS) WriteFile(p string, data []byte) error {
	if !m.dirs[path.Dir(p)] {
		return &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	if m.dirs[p] {
		return &fs.PathError{Op: "open", Path: p, Err: errIsDir}
	}
	m.files[p] = string(data)
	return nil
}

func (m *memFS) WriteMoved(p, from string, data []byte) error {
	if err := m.WriteFile(p, data); err != nil {
		return err
	}
	m.modes[p] = m.modes[from]
	return nil
}

func (m *memFS) CanReplace(p string) error {
	if m.readOnly[p] {
		return memErr(p + " is read-only")
	}
	return nil
}

func (m *memFS) CanRemove(p string) error { return m.CanReplace(p) }

func (m *memFS) MkdirAll(p string) error {
	for d := p; d != "/"; d = path.Dir(d) {
		if _, ok := m.files[d]; ok {
			return &fs.PathError{Op: "mkdir", Path: d, Err: errNotDir}
		}
		m.dirs[d] = true
	}
	return nil
}

func (m *memFS) Remove(p string) error {
	if _, ok := m.files[p]; !ok {
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrNotExist}
	}
	delete(m.files, p)
	delete(m.modes, p)
	return nil
}

func (m *memFS) Stat(p string) (fs.FileInfo, error) {
	if s, ok := m.files[p]; ok {
		return fileInfo{name: path.Base(p), size: int64(len(s))}, nil
	}
	if m.dirs[p] {
		return fileInfo{name: path.Base(p), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
}

type memErr string

func (e memErr) Error() string { return string(e) }

const (
	errIsDir  = memErr("is a directory")
	errNotDir = memErr("not a directory")
)

type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (f fileInfo) Name() string { return f.name }
func (f fileInfo) Size() int64  { return f.size }
func (f fileInfo) Mode() fs.FileMode {
	return map[bool]fs.FileMode{true: fs.ModeDir | 0o755, false: 0o644}[f.dir]
}
func (f fileInfo) ModTime() time.Time { return time.Time{} }
func (f fileInfo) IsDir() bool        { return f.dir }
func (f fileInfo) Sys() any           { return nil }
