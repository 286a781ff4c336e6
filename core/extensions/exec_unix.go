//go:build unix

package extensions

import (
	"os/exec"
	"syscall"
)

// inOwnGroup runs cmd in a process group of its own, so that stopping it
// (a cancelled call) ends whatever it started too.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// endGroup kills what cmd left running in its group after it exited.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
