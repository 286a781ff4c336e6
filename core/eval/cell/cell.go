// Package cell is the contract between the eval tool (core/tools/eval)
// and the runtimes that run its cells (core/eval/pykernel for Python,
// core/eval/jscell for JavaScript): what one cell asks for and what it
// produced. Text output streams to the request's writer as it comes;
// everything else (rich displays, the outcome) comes back in the Result.
package cell

import (
	"encoding/json"
	"io"
	"time"
)

// Request is one cell to run.
type Request struct {
	Code    string        // the cell's source
	Timeout time.Duration // after it the cell is interrupted (the runtime keeps its state)
	Reset   bool          // wipe the runtime before this cell
	Output  io.Writer     // stdout and stderr, as they come; must not be nil
}

// Kind is the sort of a rich display.
type Kind string

// Display kinds.
const (
	Text     Kind = "text"     // plain text (text/plain, or HTML turned to text)
	Markdown Kind = "markdown" // text/markdown
	JSON     Kind = "json"     // structured data (application/json)
	Image    Kind = "image"    // a picture: MIME and base64 data
	Status   Kind = "status"   // a helper's status event (application/x-omp-status)
)

// Display is one rich output of a cell: display(value) or the value of
// its last expression.
type Display struct {
	Kind Kind            `json:"type"`
	Text string          `json:"text,omitempty"`     // Text and Markdown
	JSON json.RawMessage `json:"data,omitempty"`     // JSON and Status: the value
	MIME string          `json:"mimeType,omitempty"` // Image: image/png, image/jpeg, …
	Data string          `json:"image,omitempty"`    // Image: base64
}

// Result is how a cell ended.
type Result struct {
	// ExitCode is 0 when the cell ran to its end, 1 when it raised (the
	// traceback went to Output) or asked for input.
	ExitCode  int
	Cancelled bool // interrupted: the timeout passed or the call was aborted
	TimedOut  bool // the interruption was the timeout
	// StdinRequested: the cell asked for input, which is refused.
	StdinRequested bool
	Displays       []Display
	// Notes are lines about the runtime itself the model should know:
	// a kernel that died and was restarted (its variables gone), one
	// that had to be killed after an interrupt it ignored.
	Notes []string
}
