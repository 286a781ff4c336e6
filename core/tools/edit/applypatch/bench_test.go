package applypatch

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkUpdate10k applies a ten-chunk Update File section to a
// 10,000-line file in memory: parsing plus the search.
func BenchmarkUpdate10k(b *testing.B) {
	var file strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&file, "line %d of the file\n", i)
	}
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n*** Update File: f.txt\n")
	for k := range 10 {
		i := 500 + k*900
		fmt.Fprintf(&patch, "@@\n line %d of the file\n-line %d of the file\n+changed %d\n line %d of the file\n", i-1, i, i, i+1)
	}
	patch.WriteString("*** End Patch\n")
	b.ReportAllocs()
	for b.Loop() {
		fsys := newMemFS(map[string]string{"/w/f.txt": file.String()})
		ops, err := ParseEnvelope(patch.String())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ApplyOp(ops[0], fsys); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFuzzyWindow places a lone five-line -/+ hunk that is not in a
// 2,000-line file verbatim (its lines lack the indentation and have a
// stray semicolon): every window is scored for similarity.
func BenchmarkFuzzyWindow(b *testing.B) {
	var file strings.Builder
	for i := range 2_000 {
		fmt.Fprintf(&file, "    value_%d = compute(alpha, beta, %d)\n", i, i*7)
	}
	diff := "@@\n"
	for i := 1000; i < 1005; i++ {
		diff += fmt.Sprintf("-value_%d = compute(alpha, beta, %d);\n", i, i*7)
	}
	diff += "+replaced\n"
	chunks, err := ParseDiffHunks(diff)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := updatedText(file.String(), chunks, "f.txt"); err != nil {
			b.Fatal(err)
		}
	}
}
