//go:build unix

package extensions

import (
	"os/exec"
	"syscall"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// inOwnGroup runs cmd under gopi's process policy (a process group of its
// own, ended with gopi), so that stopping it (a cancelled call) ends
// whatever it started too.
func inOwnGroup(cmd *exec.Cmd) {
	childproc.Prepare(cmd)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// endGroup kills what cmd left running in its group after it exited.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
