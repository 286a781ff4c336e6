//go:build !(linux || darwin)

package fscache

import (
	"io/fs"
	"os"
)

// statter lstats the children of one directory by path.
type statter struct {
	dir string
}

func newStatter(_ *os.File, dir string) statter {
	return statter{dir: dir}
}

// lstat returns the entry for name (Path unset); false when it is gone.
func (s statter) lstat(name string) (Entry, bool) {
	fi, err := os.Lstat(joinAbs(s.dir, name))
	if err != nil {
		return Entry{}, false
	}
	return entryFromInfo(fi), true
}

// stat is lstat following a symbolic link to its target.
func (s statter) stat(name string) (Entry, dirID, bool) {
	fi, err := os.Stat(joinAbs(s.dir, name))
	if err != nil {
		return Entry{}, dirID{}, false
	}
	return entryFromInfo(fi), dirID{}, true
}

// followSupported: no device and inode to detect link loops with, so
// Options.Follow is ignored here.
const followSupported = false

// fileIDOf has no device and inode to offer on this platform: links are
// not followed here (Options.Follow).
func fileIDOf(os.FileInfo) (dirID, bool) { return dirID{}, false }

func entryFromInfo(fi fs.FileInfo) Entry {
	t := TypeOther
	switch m := fi.Mode(); {
	case m.IsRegular():
		t = TypeFile
	case m.IsDir():
		t = TypeDir
	case m&fs.ModeSymlink != 0:
		t = TypeSymlink
	}
	return Entry{Type: t, MTime: fi.ModTime().UnixMilli(), Size: fi.Size()}
}
