package tool

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
)

// BenchmarkOutputSink streams output through a sink in 64 KB writes, as
// the shell reader hands it over: the tail kept in memory, everything
// spilled to an artifact (target ≥ 500 MB/s).
func BenchmarkOutputSink(b *testing.B) {
	chunk := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz-0123456789 lorem ipsum dolor\n"), 1000)[:64<<10]
	const total = 256 << 20 // per iteration
	store := artifact.NewStore(filepath.Join(b.TempDir(), "artifacts"))
	b.SetBytes(total)
	for b.Loop() {
		s := NewOutputSink(store, "bash")
		for n := 0; n < total; n += len(chunk) {
			s.Write(chunk)
		}
		sum, err := s.Close()
		if err != nil || sum.TotalBytes != total || !sum.Truncated {
			b.Fatal(sum.TotalBytes, err)
		}
	}
}
