//go:build unix

package extensions

import (
	"os/exec"
	"syscall"
)

// endGroup kills what cmd left running in its group after it exited.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
