package hashedit

import (
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// PreviewContext is how many unchanged lines the preview shows around a
// change.
const PreviewContext = 1

// PreviewMaxRows caps the rows of a preview; the unified diff in the
// result details has everything.
const PreviewMaxRows = 60

// Preview renders the change from old to new compactly, with the anchors
// of the new file so the next edit can use them without another read:
//
//	 12ab|unchanged line
//	-13|removed line (old line number, no anchor: it is gone)
//	+13cd|added line
//
// Groups of changes are separated by "...". It returns "" when nothing
// changed.
func Preview(old, new []string) string { return PreviewScript(diff.Lines(old, new)) }

// PreviewScript is Preview for a script already computed by diff.Lines.
func PreviewScript(edits []diff.Edit) string {
	hunks := diff.Hunks(edits, PreviewContext)
	var b strings.Builder
	rows, total := 0, 0
	for _, h := range hunks {
		total += len(h.Lines)
	}
	for hi, h := range hunks {
		if hi > 0 {
			if rows >= PreviewMaxRows {
				break
			}
			b.WriteString("...\n")
		}
		for _, e := range h.Lines {
			if rows == PreviewMaxRows {
				b.WriteString("... (" + strconv.Itoa(total-rows) + " more rows in the diff)\n")
				return strings.TrimSuffix(b.String(), "\n")
			}
			rows++
			switch e.Kind {
			case diff.Delete:
				b.WriteString("-" + strconv.Itoa(e.OldLine+1) + hashline.BodySeparator + e.Text)
			case diff.Insert:
				b.WriteString("+" + hashline.FormatLine(e.NewLine+1, e.Text))
			default:
				b.WriteString(" " + hashline.FormatLine(e.NewLine+1, e.Text))
			}
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
