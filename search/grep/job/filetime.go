package job

import (
	"fmt"
	"os"
	"time"
)

// timeKind names one of a file's timestamps, as ripgrep's --sort does.
type timeKind uint8

// The timestamps --sort can order by.
const (
	timeModified timeKind = iota
	timeAccessed
	timeCreated
)

// fileTime returns one timestamp of the file at path. ok is false when the
// file cannot be stat'ed or the system does not record that timestamp (a
// creation time on most Linux file systems before statx, for instance):
// such files sort after every file that has one, as with ripgrep.
func fileTime(path string, kind timeKind) (t time.Time, ok bool) {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}, false
	}
	switch kind {
	case timeModified:
		return info.ModTime(), true
	case timeAccessed:
		return accessTime(info)
	case timeCreated:
		return birthTime(path, info)
	}
	panic(fmt.Sprintf("fileTime: unknown kind %d", kind))
}
