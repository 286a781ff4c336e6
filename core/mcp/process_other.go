//go:build !unix

package mcp

import "os/exec"

// killGroup kills the child alone.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
