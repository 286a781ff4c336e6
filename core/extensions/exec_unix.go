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

// signalGroup sends s to cmd's process group (every child_process child
// has one of its own), so that what a shell started goes too; the child
// alone when the group is gone.
func signalGroup(cmd *exec.Cmd, s syscall.Signal) error {
	if err := syscall.Kill(-cmd.Process.Pid, s); err == nil {
		return nil
	}
	return cmd.Process.Signal(s)
}
