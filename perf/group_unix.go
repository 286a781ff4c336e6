//go:build unix

package perf

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and, when its context
// ends, kills the whole group, so a timed command leaves nothing running.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
