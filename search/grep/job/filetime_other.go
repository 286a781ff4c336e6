//go:build !linux && !darwin && !freebsd && !netbsd && !windows

package job

import (
	"os"
	"time"
)

// accessTime is not read on this system: files sort as if they had none.
func accessTime(os.FileInfo) (time.Time, bool) { return time.Time{}, false }

// birthTime is not read on this system: files sort as if they had none.
func birthTime(string, os.FileInfo) (time.Time, bool) { return time.Time{}, false }
