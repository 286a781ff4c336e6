//go:build unix

package tty

import (
	"os"

	"golang.org/x/sys/unix"
)

// IsTerminal reports whether f is a terminal. A character device is not
// enough: /dev/null is one, and `gopi </dev/null` has no terminal.
func IsTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}

// EchoOff stops the terminal f from echoing what is typed (for a secret)
// and returns the function that restores it. Line editing and Ctrl-C keep
// working.
func EchoOff(f *os.File) (restore func(), err error) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	quiet.Lflag |= unix.ICANON | unix.ISIG
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &quiet); err != nil {
		return nil, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, old) }, nil
}
