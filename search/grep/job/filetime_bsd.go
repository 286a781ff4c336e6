//go:build darwin || freebsd || netbsd

package job

import (
	"os"
	"syscall"
	"time"
)

// accessTime is the file's last access time from its stat data.
func accessTime(info os.FileInfo) (time.Time, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Atimespec.Unix()), true
}

// birthTime is the creation time these systems keep in the stat data.
func birthTime(_ string, info os.FileInfo) (time.Time, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Birthtimespec.Unix()), true
}
