//go:build !linux

package tokens

import "testing"

// measureCPU runs f b.N times; CPU time per thread is only measured on Linux.
func measureCPU(b *testing.B, bytes int, f func()) {
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for b.Loop() {
		f()
	}
}

// measureProcessCPU runs f b.N times; CPU time is only measured on Linux.
func measureProcessCPU(b *testing.B, bytes int, f func()) { measureCPU(b, bytes, f) }
