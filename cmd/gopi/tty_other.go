//go:build !unix

package main

import "os"

// isTerminal reports whether f is a character device (a console).
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
