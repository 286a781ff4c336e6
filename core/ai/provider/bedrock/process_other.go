//go:build !unix

package bedrock

import (
	"os/exec"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// prepareProcess puts a credential_process under gopi's process policy;
// without process groups a timeout stops the shell itself only.
func prepareProcess(cmd *exec.Cmd) { childproc.Prepare(cmd) }
