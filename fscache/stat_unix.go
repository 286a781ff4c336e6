//go:build linux || darwin

package fscache

import (
	"os"

	"golang.org/x/sys/unix"
)

// statter lstats the children of one open directory with fstatat on the
// directory's descriptor, which spares the kernel a path lookup from the
// root for every entry.
type statter struct {
	fd int
}

func newStatter(dir *os.File, _ string) statter {
	return statter{fd: int(dir.Fd())}
}

// lstat returns the entry for name (Path unset); false when it is gone.
func (s statter) lstat(name string) (Entry, bool) {
	e, _, ok := s.fstatat(name, unix.AT_SYMLINK_NOFOLLOW)
	return e, ok
}

// stat is lstat following a symbolic link to its target, with the
// target's identity.
func (s statter) stat(name string) (Entry, dirID, bool) { return s.fstatat(name, 0) }

func (s statter) fstatat(name string, flags int) (Entry, dirID, bool) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(s.fd, name, &st, flags)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return Entry{}, dirID{}, false
		}
		break
	}
	var t EntryType
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		t = TypeFile
	case unix.S_IFDIR:
		t = TypeDir
	case unix.S_IFLNK:
		t = TypeSymlink
	default:
		t = TypeOther
	}
	sec, nsec := st.Mtim.Unix()
	return Entry{Type: t, MTime: sec*1000 + nsec/1e6, Size: st.Size}, dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}

// followSupported: directories have a device and inode to detect link
// loops with.
const followSupported = true

// fileIDOf returns the device and inode of fi (false when it has none).
func fileIDOf(fi os.FileInfo) (dirID, bool) {
	st, ok := fi.Sys().(*unix.Stat_t)
	if !ok {
		return dirID{}, false
	}
	return dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
