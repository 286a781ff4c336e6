//go:build !unix

package perf

import "os/exec"

// ownGroup does nothing where process groups do not exist; the context
// still kills the command itself.
func ownGroup(*exec.Cmd) {}
