//go:build !unix

package extensions

import (
	"os/exec"
)

// endGroup does nothing where process groups are not available.
func endGroup(*exec.Cmd) {}
