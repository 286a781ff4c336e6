//go:build !unix

package mcp

import "os/exec"

// setGroup does nothing where process groups are not available.
func setGroup(*exec.Cmd) {}

// killGroup kills the child alone.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
