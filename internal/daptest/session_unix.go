//go:build unix

package daptest

import (
	"os/exec"
	"syscall"
)

// ownSession starts cmd in a session (and process group) of its own, as
// debug adapters start the programs they debug.
func ownSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
