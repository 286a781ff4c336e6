package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
)

// NotRegularError is the refusal to read or replace a file that is
// neither a regular file nor a directory: a named pipe, a socket or a
// device, whose reads can block forever and whose content is no text to
// edit.
type NotRegularError struct {
	Path string      // the path as the caller names it
	Mode fs.FileMode // the file's mode
}

// Error says what the file is and that only regular files are handled.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (it is %s); only regular files are read, edited or written", e.Path, Kind(e.Mode))
}

// Kind describes in words the type of a file with mode m ("a named
// pipe", "a directory", "a regular file", ...).
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "an irregular file"
}

// CheckRegular returns a *NotRegularError naming display when the file
// at path (links followed) exists and is neither a regular file nor a
// directory. It only stats the file, so a named pipe is refused before
// anything opens it (an open would block until a writer comes).
func CheckRegular(path, display string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: display, Mode: fi.Mode()}
}

// KernelFileError is the refusal to replace a file of a kernel file
// system (/proc, /sys): its content is made by the kernel on each read,
// and no permission change makes it a file to rewrite.
type KernelFileError struct {
	Path string // the path as the caller names it
}

// Error says the file is the kernel's and cannot be edited.
func (e *KernelFileError) Error() string {
	return fmt.Sprintf("%s is a kernel file (on a proc or sys file system), not a regular file on disk; it cannot be written or edited", e.Path)
}
