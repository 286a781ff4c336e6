package job

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// accessTime is the file's last access time from its stat data.
func accessTime(info os.FileInfo) (time.Time, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Atim.Sec, st.Atim.Nsec), true
}

// birthTime asks statx for the creation time, which not every file system
// records (the mask then lacks STATX_BTIME).
func birthTime(path string, _ os.FileInfo) (time.Time, bool) {
	var sx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_BTIME, &sx); err != nil || sx.Mask&unix.STATX_BTIME == 0 {
		return time.Time{}, false
	}
	return time.Unix(sx.Btime.Sec, int64(sx.Btime.Nsec)), true
}
