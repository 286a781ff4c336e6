//go:build !unix

package tty

import (
	"errors"
	"os"
)

// IsTerminal reports whether f is a character device (a console).
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// EchoOff is unavailable here: what is typed stays visible.
func EchoOff(f *os.File) (restore func(), err error) {
	return nil, errors.New("cannot hide typed input on this system")
}
