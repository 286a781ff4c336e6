//go:build !unix

package extensions

import "os/exec"

// inOwnGroup does nothing where process groups are not available: a
// cancelled call stops the program itself only.
func inOwnGroup(*exec.Cmd) {}

// endGroup does nothing where process groups are not available.
func endGroup(*exec.Cmd) {}
