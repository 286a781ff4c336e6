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
	var st unix.Stat_t
	for {
		err := unix.Fstatat(s.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return Entry{}, false
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
	return Entry{Type: t, MTime: sec*1000 + nsec/1e6, Size: st.Size}, true
}
