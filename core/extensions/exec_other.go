//go:build !unix

package extensions

import (
	"os/exec"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// inOwnGroup runs cmd under gopi's process policy; without process
// groups a cancelled call stops the program itself only.
func inOwnGroup(cmd *exec.Cmd) { childproc.Prepare(cmd) }

// endGroup does nothing where process groups are not available.
func endGroup(*exec.Cmd) {}
