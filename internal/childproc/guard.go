package childproc

import (
	"os"
	"sync"
	"time"
)

// GuardArg is the first argument of a guard run: a program that calls
// EnableGuard must hand a run whose first argument is GuardArg to
// RunGuard before doing anything else.
const GuardArg = "__gopi-guard"

// Guard timings: how long the processes get between SIGTERM and SIGKILL
// once their owner has gone, and how long SIGKILL is sent again to what
// is still there (processes forking as they are killed).
const (
	guardGrace    = time.Second
	guardKillWait = 5 * time.Second
)

// guard is the state of this process's guard: one per process, because a
// process dies as a whole. Prepare starts it at the first child.
var guard struct {
	mu      sync.Mutex
	enabled bool
	tried   bool     // one attempt only: a guard that cannot start is not retried
	w       *os.File // the guard's standard input; never closed, and kept here so the collector never closes it either
}

// EnableGuard lets Prepare start the guard before the first child: a copy
// of this program (os.Executable) run as `<program> GuardArg …`, in a
// process group of its own, reading a pipe from this process. When the
// pipe reaches its end, this process is gone, however it ended (kill -9
// included), and the guard ends every process carrying Mark, and their
// process groups: SIGTERM, a grace of guardGrace, then SIGKILL. It also
// removes the temporary directories of owners that are gone (SweepTemp),
// once when it starts and once at the end. Only on Linux (it finds the
// processes in /proc); elsewhere nothing is started.
//
// Out of its reach: a process that clears its environment (env -i) and
// leaves its process group, and one running as another user.
func EnableGuard() {
	guard.mu.Lock()
	guard.enabled = true
	guard.mu.Unlock()
}
