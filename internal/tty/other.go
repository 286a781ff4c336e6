//go:build !unix

package tty

import "os"

// IsTerminal reports whether f is a character device (a console).
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
