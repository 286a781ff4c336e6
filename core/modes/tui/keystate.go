package tui

import "github.com/gopi-agent/gopi/core/ai"

// keyState is what the keys omp users rely on keep between presses:
// whether Ctrl+O's redraw waits for the run to end, and the images Ctrl+V
// pasted.
type keyState struct {
	redrawCards bool               // Ctrl+O was pressed while the agent worked: redraw the transcript when it ends
	images      []*ai.ImageContent // pasted with ctrl+v for the message being typed
}
