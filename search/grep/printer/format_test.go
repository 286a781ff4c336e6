package printer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/search/grep"
)

// One long output line is handed on in pieces of at most textChunk bytes
// of text, with and without colours, and the pieces make the same line.
func TestLongLineSpilledInPieces(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("ab", 600_000) // 1.2 MB
	spans := []grep.Span{{Start: 1, End: 2}, {Start: 700_001, End: 900_000}}
	for _, colors := range []Palette{{}, {Path: "P", Line: "L", Match: "M", Reset: "R", Column: "C"}} {
		f := &Config{Colors: colors, WithPath: true, LineNumbers: true, Column: true}
		want := appendLine(nil, f, "p", 3, ':', 2, 0, text, spans)
		var got []byte
		largest := 0
		spill := func(dst []byte) ([]byte, bool) {
			largest = max(largest, len(dst))
			got = append(got, dst...)
			return dst[:0], true
		}
		rest, ok := appendLineSpilled(nil, f, "p", 3, ':', 2, 0, text, spans, spill)
		got = append(got, rest...)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("colors %+v: pieces make %d bytes, the line is %d", colors, len(got), len(want))
		}
		if largest > textChunk+64 {
			t.Errorf("colors %+v: a piece of %d bytes", colors, largest)
		}
	}
}
