package grep

import "syscall"

// statKey stats path (following links, as the read does) for the content
// cache's freshness check.
func statKey(path string) (fileKey, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fileKey{}, false
		}
		break
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
	}, true
}
