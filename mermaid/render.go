package mermaid

import (
	"fmt"
	"strings"
)

// Limits on what is drawn, so that hostile input cannot exhaust memory.
const (
	MaxNodes = 1000      // nodes (participants) of one diagram
	MaxCells = 4_000_000 // characters of the drawing
)

// Options shape the drawing. The zero value is not the default: start
// from DefaultOptions.
type Options struct {
	UseASCII         bool // plain ASCII instead of box-drawing characters
	PaddingX         int  // columns between neighbouring nodes (between layers left-right)
	PaddingY         int  // rows between layers (between neighbouring nodes left-right)
	BoxBorderPadding int  // blank cells between a node's text and its border
}

// DefaultOptions are the spacing the renderer uses unless told
// otherwise.
func DefaultOptions() Options {
	return Options{PaddingX: 5, PaddingY: 5, BoxBorderPadding: 1}
}

// Render draws a Mermaid diagram as text. Unsupported diagram kinds and
// unreadable statements are errors naming the line.
func Render(src string, o Options) (string, error) {
	o.PaddingX = min(max(o.PaddingX, 0), 100)
	o.PaddingY = min(max(o.PaddingY, 0), 100)
	o.BoxBorderPadding = min(max(o.BoxBorderPadding, 0), 20)
	st := statements(src)
	if len(st) == 0 {
		return "", fmt.Errorf("the Mermaid source is empty; start it with a header such as \"graph TD\" or \"sequenceDiagram\"")
	}
	head := strings.Fields(st[0].text)[0]
	switch head {
	case "graph", "flowchart":
		fc, err := ParseFlowchart(src)
		if err != nil {
			return "", err
		}
		return renderFlowchart(fc, o)
	case "stateDiagram", "stateDiagram-v2":
		fc, err := ParseState(src)
		if err != nil {
			return "", err
		}
		return renderFlowchart(fc, o)
	case "sequenceDiagram":
		sd, err := ParseSequence(src)
		if err != nil {
			return "", err
		}
		return renderSequence(sd, o)
	}
	return "", fmt.Errorf("unsupported Mermaid diagram %q: only flowcharts (\"graph TD\", \"flowchart LR\", …), sequence diagrams (\"sequenceDiagram\") and state diagrams (\"stateDiagram-v2\") can be drawn as text", clip(st[0].text))
}
