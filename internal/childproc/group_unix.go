//go:build unix

package childproc

import (
	"os/exec"
	"syscall"
)

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
