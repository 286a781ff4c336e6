//go:build !unix

package childproc

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// cancelGroup leaves exec's cancellation (killing cmd itself) where there
// are no process groups.
func cancelGroup(*exec.Cmd) {}
