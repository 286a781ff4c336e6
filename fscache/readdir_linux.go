package fscache

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirHandle is an open directory read with raw getdents64 calls: one open,
// as few reads as the listing needs and one close, with no Go file object or
// poller registration in between.
type dirHandle struct {
	fd int
}

// openDir opens a directory for listing; ok is false when it cannot be
// read, and denied then says whether that is for lack of permission.
// Unless follow is set, a symlink is refused rather than followed.
func openDir(path string, follow bool) (h dirHandle, ok, denied bool) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	for {
		fd, err := unix.Open(path, flags, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return dirHandle{}, false, err == unix.EACCES || err == unix.EPERM
		}
		return dirHandle{fd: fd}, true, false
	}
}

func (h dirHandle) close() { _ = unix.Close(h.fd) }

// id returns the directory's device and inode.
func (h dirHandle) id() (dirID, bool) {
	var st unix.Stat_t
	if err := unix.Fstat(h.fd, &st); err != nil {
		return dirID{}, false
	}
	return dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}

func (h dirHandle) statter(string) statter { return statter{fd: h.fd} }

// read appends the directory's children (without "." and "..") to out, using
// buf as scratch. A read error ends the listing with what was read.
func (h dirHandle) read(buf []byte, out []dirent) []dirent {
	for {
		n, err := unix.Getdents(h.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return out
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
			rec := buf[off:]
			reclen := int(*(*uint16)(unsafe.Pointer(&rec[16])))
			if reclen == 0 || off+reclen > n {
				return out
			}
			name := rec[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			off += reclen
			if len(name) == 0 || (name[0] == '.' && (len(name) == 1 || (len(name) == 2 && name[1] == '.'))) {
				continue
			}
			out = append(out, dirent{name: string(name), kind: direntKind(rec[18])})
		}
	}
}

// direntKind maps a d_type to an entry type; 0 when the file system did not
// say and an lstat must decide.
func direntKind(t byte) EntryType {
	switch t {
	case unix.DT_REG:
		return TypeFile
	case unix.DT_DIR:
		return TypeDir
	case unix.DT_LNK:
		return TypeSymlink
	case unix.DT_UNKNOWN:
		return 0
	default:
		return TypeOther
	}
}
