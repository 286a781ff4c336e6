//go:build unix

package read

import (
	"os"
	"syscall"
)

// openFile opens path for reading without blocking: a pseudo-file that
// looks regular but blocks when read (/proc/kmsg) answers at once with an
// error instead of hanging the tool. It changes nothing for ordinary files.
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
