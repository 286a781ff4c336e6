package hashedit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
)

// MismatchContext is how many current lines are shown on each side of a
// stale anchor.
const MismatchContext = 2

// MismatchError reports anchors whose hash no longer matches the file: it
// changed since the model saw those lines. Its message shows the current
// lines around each stale anchor as anchored rows, the stale ones marked
// with '*', so the model can retry without another read.
type MismatchError struct {
	Path  string         // the file, as the model named it
	Lines []string       // the file's current lines
	Stale []hashline.Ref // the anchors that did not match, in input order
}

// Error renders the rejection, the stale anchors and the current lines.
func (e *MismatchError) Error() string {
	var b strings.Builder
	noun := "anchor"
	if len(e.Stale) > 1 {
		noun = "anchors"
	}
	path := e.Path
	if path == "" {
		path = "the file"
	}
	refs := make([]string, len(e.Stale))
	for i, r := range e.Stale {
		refs[i] = r.String()
	}
	fmt.Fprintf(&b, "Edit rejected: %d stale %s (%s) in %s; the file changed since you read it and nothing was written.\n",
		len(e.Stale), noun, strings.Join(refs, ", "), path)
	b.WriteString("Current lines (marked * where your anchor is stale); use these anchors or read the file again:\n")
	b.WriteString(e.Frame())
	return b.String()
}

// Frame renders the current lines around every stale anchor: rows
// " LINEhh|text" and "*LINEhh|text" for the stale lines, with "..."
// between groups that are not adjacent.
func (e *MismatchError) Frame() string {
	marked := map[int]bool{}
	var centers []int
	for _, r := range e.Stale {
		if !marked[r.Line] {
			marked[r.Line] = true
			centers = append(centers, r.Line)
		}
	}
	slices.Sort(centers)
	var b strings.Builder
	last := 0 // last line printed
	for _, c := range centers {
		from := max(c-MismatchContext, 1, last+1)
		to := min(c+MismatchContext, len(e.Lines))
		if from > to {
			continue
		}
		if last > 0 && from > last+1 {
			b.WriteString("...\n")
		}
		for n := from; n <= to; n++ {
			if marked[n] {
				b.WriteByte('*')
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(hashline.FormatLine(n, e.Lines[n-1]))
			b.WriteByte('\n')
		}
		last = to
	}
	return strings.TrimSuffix(b.String(), "\n")
}
