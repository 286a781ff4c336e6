//go:build unix

package tui

import (
	"io"

	"golang.org/x/sys/unix"
)

// terminalSize asks the terminal behind w for its size (0, 0 when w is
// not a terminal), so the first prints fit before Bubble Tea reports it.
func terminalSize(w io.Writer) (width, height int) {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok {
		return 0, 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0
	}
	return int(ws.Col), int(ws.Row)
}
