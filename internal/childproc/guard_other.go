//go:build !linux

package childproc

import (
	"fmt"
	"os"
)

// startGuard does nothing here: the guard finds processes in /proc.
func startGuard() {}

// RunGuard is not available here: the guard needs /proc.
func RunGuard([]string) int {
	fmt.Fprintln(os.Stderr, "gopi: the guard mode is internal to gopi and needs Linux")
	return 2
}
