//go:build unix

package childproc

import (
	"os/exec"
	"syscall"
)

// cancelGroup makes cancelling cmd (its context ending) kill its whole
// process group, what it started included, not only cmd itself.
func cancelGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// ownGroup makes cmd the leader of a new process group, unless it asks
// for a new session (which is a new group as well).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if !cmd.SysProcAttr.Setsid {
		cmd.SysProcAttr.Setpgid = true
	}
}

// killGroup kills the process group led by pid.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
