//go:build !unix

package childproc

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// cancelGroup leaves exec's cancellation (killing cmd itself) where there
// are no process groups.
func cancelGroup(*exec.Cmd) {}

// killGroup kills the process pid where there are no process groups.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
