//go:build !linux

package childproc

import (
	"os"
	"syscall"
)

// endTree kills the process groups of the recorded leaders: without /proc
// the marked processes cannot be found.
func endTree(_ string, leaders []int) {
	for _, pid := range leaders {
		killGroup(pid)
	}
}

// livePids cannot list processes here.
func livePids(string) []int { return nil }

// Running reports whether pid is a live process; without /proc, whether
// a signal can reach it.
func Running(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}
