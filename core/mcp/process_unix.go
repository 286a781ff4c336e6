//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// killGroup kills the child's whole process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
