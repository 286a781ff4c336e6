//go:build unix

package extensions

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used so far, user and
// system, over every thread.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
