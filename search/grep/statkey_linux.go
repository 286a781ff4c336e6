package grep

import "syscall"

// statKey stats path for the content cache's freshness check (a link is
// followed, as the read does, and marked with links 0).
func statKey(path string) (fileKey, bool) {
	var st syscall.Stat_t
	if !statRetry(syscall.Lstat, path, &st) {
		return fileKey{}, false
	}
	links := uint64(st.Nlink)
	if st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
		// A link (followed with -L): the target may change in a directory
		// nobody watches, so the file is always checked with a stat.
		if !statRetry(syscall.Stat, path, &st) {
			return fileKey{}, false
		}
		links = 0
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fileKey{}, false
	}
	return fileKey{
		size:  st.Size,
		mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
		ino:   uint64(st.Ino),
		dev:   uint64(st.Dev),
		links: links,
	}, true
}

// statRetry runs a stat call, retrying when a signal interrupts it.
func statRetry(call func(string, *syscall.Stat_t) error, path string, st *syscall.Stat_t) bool {
	for {
		err := call(path, st)
		if err != syscall.EINTR {
			return err == nil
		}
	}
}
