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
