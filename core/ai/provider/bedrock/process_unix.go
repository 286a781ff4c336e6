//go:build unix

package bedrock

import (
	"os/exec"
	"syscall"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// prepareProcess puts a credential_process under gopi's process policy,
// in a process group of its own that a timeout or cancellation ends
// whole, whatever the shell started included.
func prepareProcess(cmd *exec.Cmd) {
	childproc.Prepare(cmd)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
