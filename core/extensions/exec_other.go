//go:build !unix

package extensions

import (
	"os/exec"
	"syscall"
)

// endGroup does nothing where process groups are not available.
func endGroup(*exec.Cmd) {}

// signalGroup sends s to the child where there are no process groups.
func signalGroup(cmd *exec.Cmd, s syscall.Signal) error { return cmd.Process.Signal(s) }
