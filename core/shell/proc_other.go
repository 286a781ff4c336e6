//go:build !unix

package shell

import (
	"os"
	"os/exec"
	"time"
)

// Without process groups only the shell itself can be signalled.

func endGroup(pid int, _ time.Duration) { killGroup(pid) }

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func exitStatus(_ error, cmd *exec.Cmd) (int, bool) {
	if cmd.ProcessState == nil {
		return 0, false
	}
	return cmd.ProcessState.ExitCode(), true
}

// endOwned can only end the shells themselves here.
func endOwned(groups []int, _ int, _ string, _ time.Duration) {
	for _, g := range groups {
		killGroup(g)
	}
}

// killMarked needs process groups and /proc: nothing to do here.
func killMarked(string) {}
