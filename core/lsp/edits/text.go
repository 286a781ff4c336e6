package edits

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// bom is the UTF-8 byte-order mark. Documents go to the servers without
// it, so positions count from the byte after it.
var bom = []byte("\ufeff")

// span is one text edit as byte offsets into the document text.
type span struct {
	start, end int
	text       string
	index      int // position in the server's list, for messages and order
}

// ApplyText returns content (a file's bytes as on disk) with edits
// applied. The positions count UTF-16 units in the text the server was
// sent: the bytes without a leading UTF-8 byte-order mark, line endings
// as they are. The mark is kept; in a file whose first line break is
// "\r\n", every "\n" the new texts bring becomes "\r\n", so the file keeps
// its style. All edits refer to the original text: they are applied as
// one, never one on top of the other. Edits that overlap, a range that
// ends before it starts and a line past the end of the document are
// errors (a character past the end of its line means the line's end, as
// the protocol says). Inserts at one place keep the server's order, before
// a replacement that starts there.
func ApplyText(content []byte, edits []protocol.TextEdit) ([]byte, error) {
	text, hasBOM := bytes.CutPrefix(content, bom)
	spans, err := resolveSpans(text, edits)
	if err != nil {
		return nil, err
	}
	crlf := firstBreakIsCRLF(text)
	var out bytes.Buffer
	out.Grow(len(content) + newTextLen(spans))
	if hasBOM {
		out.Write(bom)
	}
	at := 0
	for _, s := range spans {
		out.Write(text[at:s.start])
		if crlf {
			out.WriteString(toCRLF(s.text))
		} else {
			out.WriteString(s.text)
		}
		at = s.end
	}
	out.Write(text[at:])
	return out.Bytes(), nil
}

// resolveSpans turns edits into byte spans of text, sorted by place, and
// refuses bad ranges and overlaps.
func resolveSpans(text []byte, edits []protocol.TextEdit) ([]span, error) {
	spans := make([]span, 0, len(edits))
	lines := protocol.NewLineIndex(text)
	for i, e := range edits {
		start, err := lines.Offset(e.Range.Start)
		if err != nil {
			return nil, fmt.Errorf("edit %d starts outside the document: %v", i+1, err)
		}
		end, err := lines.Offset(e.Range.End)
		if err != nil {
			return nil, fmt.Errorf("edit %d ends outside the document: %v", i+1, err)
		}
		if end < start {
			return nil, fmt.Errorf("edit %d ends (%s) before it starts (%s)", i+1, posText(e.Range.End), posText(e.Range.Start))
		}
		spans = append(spans, span{start: start, end: end, text: e.NewText, index: i})
	}
	// Inserts (empty spans) sort before a replacement starting at the
	// same place; equal spans keep the server's order.
	slices.SortStableFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	for i := 1; i < len(spans); i++ {
		prev, cur := spans[i-1], spans[i]
		if cur.start < prev.end {
			return nil, fmt.Errorf("edits %d and %d overlap (%s and %s)", prev.index+1, cur.index+1,
				rangeText(edits[prev.index].Range), rangeText(edits[cur.index].Range))
		}
	}
	return spans, nil
}

// firstBreakIsCRLF reports whether text's first line break is "\r\n", the
// rule the file tools use to call a file a CRLF file.
func firstBreakIsCRLF(text []byte) bool {
	i := bytes.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

// toCRLF writes every line break of s as "\r\n" ("\r\n" already there
// stays one break).
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

func newTextLen(spans []span) int {
	n := 0
	for _, s := range spans {
		n += len(s.text)
	}
	return n
}

// posText is a position as people count: 1-based line and column.
func posText(p protocol.Position) string {
	return fmt.Sprintf("%d:%d", p.Line+1, p.Character+1)
}

func rangeText(r protocol.Range) string {
	return posText(r.Start) + "-" + posText(r.End)
}
