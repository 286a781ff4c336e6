//go:build !unix

package signals

import (
	"os"
	"syscall"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// endBySignal removes the temporary files of writes in progress, then
// exits with status 128 plus the signal's number.
func endBySignal(sig os.Signal) {
	atomicfile.RemoveTemps()
	if s, ok := sig.(syscall.Signal); ok {
		os.Exit(128 + int(s))
	}
	os.Exit(2) // the status of a usage error: no signal number to give
}
