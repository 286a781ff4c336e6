package job

import (
	"os"
	"syscall"
	"time"
)

// accessTime is the file's last access time from its attribute data.
func accessTime(info os.FileInfo) (time.Time, bool) {
	d, ok := info.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(0, d.LastAccessTime.Nanoseconds()), true
}

// birthTime is the file's creation time from its attribute data.
func birthTime(_ string, info os.FileInfo) (time.Time, bool) {
	d, ok := info.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(0, d.CreationTime.Nanoseconds()), true
}
