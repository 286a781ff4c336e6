//go:build !unix

package tui

// suspendForJobControl reports false: there is no POSIX job control here,
// so gopi finishes in the foreground.
func suspendForJobControl(any) bool { return false }
