package tui

// keyState is what the keys omp users rely on keep between presses:
// the card Ctrl+O expands, the open Ctrl+R search, the images Ctrl+V
// pasted, the time of the last Esc.
type keyState struct {
	lastTool *shownCard // the tool card printed last (ctrl+o prints it in full)
}
