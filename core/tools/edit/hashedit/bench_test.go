package hashedit

import (
	"fmt"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
)

// BenchmarkApply100k applies 20 scattered replacements to a 100,000-line
// file: anchor validation, bucketing and splicing.
func BenchmarkApply100k(b *testing.B) {
	lines := make([]string, 100_000)
	for i := range lines {
		lines[i] = fmt.Sprintf("\tvalue%d := compute(%d) // line", i, i)
	}
	var ops []Op
	for k := range 20 {
		l := 1 + k*4999
		r := hashline.Ref{Line: l, Hash: hashline.LineHash(l, lines[l-1])}
		ops = append(ops, Op{Kind: Replace, From: r, To: r, Payload: []string{"replaced", "twice"}})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(lines, ops, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreview100k renders the preview of a small change in a
// 100,000-line file (dominated by the diff's common prefix/suffix scan).
func BenchmarkPreview100k(b *testing.B) {
	old := make([]string, 100_000)
	for i := range old {
		old[i] = fmt.Sprintf("line %d", i)
	}
	new := append([]string(nil), old...)
	new[50_000] = "changed"
	b.ReportAllocs()
	for b.Loop() {
		_ = Preview(old, new)
	}
}
