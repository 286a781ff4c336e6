package tui

import "github.com/gopi-agent/gopi/core/ai"

// keyState is what the keys omp users rely on keep between presses:
// the card Ctrl+O expands and the images Ctrl+V pasted.
type keyState struct {
	lastTool *shownCard         // the tool card printed last (ctrl+o prints it in full)
	images   []*ai.ImageContent // pasted with ctrl+v for the message being typed
}
