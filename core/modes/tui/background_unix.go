//go:build unix

package tui

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/gopi-agent/gopi/internal/tty"
)

// suspendForJobControl stops this process's group with SIGTSTP, as Ctrl+Z
// does, so the shell takes the terminal back and `bg` continues gopi in
// the background. It does nothing and reports false when out is not a
// terminal (no job control to hand over to).
func suspendForJobControl(out any) bool {
	f, ok := out.(*os.File)
	if !ok || !tty.IsTerminal(f) {
		return false
	}
	return unix.Kill(0, unix.SIGTSTP) == nil
}
