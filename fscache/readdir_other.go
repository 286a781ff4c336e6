//go:build !linux

package fscache

import (
	"errors"
	"io/fs"
	"os"
)

// dirHandle is an open directory read through the os package.
type dirHandle struct {
	f    *os.File
	path string
}

// openDir opens a directory for listing; ok is false when it cannot be
// read, and denied then says whether that is for lack of permission.
// Unless follow is set, a symlink is refused rather than followed.
func openDir(path string, follow bool) (h dirHandle, ok, denied bool) {
	if !follow {
		if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
			return dirHandle{}, false, false
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return dirHandle{}, false, errors.Is(err, fs.ErrPermission)
	}
	return dirHandle{f: f, path: path}, true, false
}

func (h dirHandle) close() { _ = h.f.Close() }

// id returns the directory's device and inode where the platform has them.
func (h dirHandle) id() (dirID, bool) {
	fi, err := h.f.Stat()
	if err != nil {
		return dirID{}, false
	}
	return fileIDOf(fi)
}

func (h dirHandle) statter(dir string) statter { return newStatter(h.f, dir) }

// read appends the directory's children to out. A read error ends the
// listing with what was read.
func (h dirHandle) read(_ []byte, out []dirent) []dirent {
	des, _ := h.f.ReadDir(-1)
	for _, de := range des {
		var k EntryType
		switch t := de.Type(); {
		case t.IsRegular():
			k = TypeFile
		case t.IsDir():
			k = TypeDir
		case t&fs.ModeSymlink != 0:
			k = TypeSymlink
		default:
			k = TypeOther
		}
		out = append(out, dirent{name: de.Name(), kind: k})
	}
	return out
}
