package hashline

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// benchFile builds a source-like file of n lines.
func benchFile(n int) string {
	var b strings.Builder
	shapes := []string{"func f%d(x int) int {", "\tif x > %d {", "\t\treturn x * 2", "\t}", "\treturn x + %d", "}", "", "// comment %d about the code"}
	for i := range n {
		s := shapes[i%len(shapes)]
		if strings.Contains(s, "%d") {
			s = fmt.Sprintf(s, i)
		}
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String()
}

// BenchmarkFormatFile100k anchors a 100,000-line file in one pass (target
// ≤ 20 ms per op).
func BenchmarkFormatFile100k(b *testing.B) {
	content := benchFile(100_000)
	buf := make([]byte, 0, len(content)*2)
	b.SetBytes(int64(len(content)))
	b.ResetTimer()
	for b.Loop() {
		buf = AppendRows(buf[:0], content, 1)
	}
}

// BenchmarkLineHash hashes one typical line.
func BenchmarkLineHash(b *testing.B) {
	for b.Loop() {
		_ = LineHash(41, "\treturn clean.length === 0 ? DEF : clean.toUpperCase();")
	}
}

// BenchmarkFormatFileInput anchors the file named by HASHLINE_BENCH_FILE
// (bench/hashline.sh sets it); skipped when unset.
func BenchmarkFormatFileInput(b *testing.B) {
	path := os.Getenv("HASHLINE_BENCH_FILE")
	if path == "" {
		b.Skip("HASHLINE_BENCH_FILE not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	content := string(data)
	buf := make([]byte, 0, len(content)*2)
	b.SetBytes(int64(len(content)))
	b.ResetTimer()
	for b.Loop() {
		buf = AppendRows(buf[:0], content, 1)
	}
}
