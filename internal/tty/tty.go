// Package tty tells what the standard streams of the process are
// connected to: a terminal (IsTerminal), or input worth reading when no
// path is given (IsReadableInput).
package tty

import "os"

// IsReadableInput reports whether f (standard input) is a pipe, a socket
// or a regular file: input worth searching when no path is given, as
// ripgrep decides. A terminal or /dev/null is not.
func IsReadableInput(f *os.File) bool {
	info, err := f.Stat()
	if err != nil {
		return false
	}
	m := info.Mode()
	return m.IsRegular() || m&(os.ModeNamedPipe|os.ModeSocket) != 0
}
