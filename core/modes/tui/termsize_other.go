//go:build !unix

package tui

import "io"

// terminalSize is unknown here until Bubble Tea reports it.
func terminalSize(io.Writer) (width, height int) { return 0, 0 }
