package job

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// ErrnoText is the reason of a file error without the path the error
// repeats: "No such file or directory", "Permission denied".
func ErrnoText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		var errno syscall.Errno
		if errors.As(pe.Err, &errno) {
			msg := errno.Error()
			return strings.ToUpper(msg[:1]) + msg[1:]
		}
		return pe.Err.Error()
	}
	return err.Error()
}
