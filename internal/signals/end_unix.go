//go:build unix

package signals

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// endBySignal removes the temporary files of writes in progress, then
// ends the process by sig itself (its default action), so that the
// parent sees the usual status of a process killed by that signal.
func endBySignal(sig os.Signal) {
	atomicfile.RemoveTemps()
	s, ok := sig.(syscall.Signal)
	if !ok {
		os.Exit(2) // the status of a usage error: no signal number to give
	}
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), s)
	time.Sleep(time.Second) // the signal is on its way
	os.Exit(128 + int(s))
}
