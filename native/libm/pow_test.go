package libm

import (
	"math"
	"runtime"
	"testing"
)

// Pow follows IEEE 754's pow on the special values, and agrees with
// math.Pow to within a few ulps elsewhere.
func TestPow(t *testing.T) {
	for _, c := range []struct{ x, y, want float64 }{
		{2, 10, 1024},
		{2, 0.5, math.Sqrt2},
		{0, 0, 1},
		{math.NaN(), 0, 1},
		{-8, 1.0 / 3, math.NaN()},
		{10, 400, math.Inf(1)},
		{0, -1, math.Inf(1)},
	} {
		got := Pow(c.x, c.y)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("Pow(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	// glibc's pow is correctly rounded here where math.Pow is one ulp off
	// (Python's math.pow, which calls it, gives the same).
	if Native && runtime.GOOS == "linux" {
		if got, want := Pow(999, 24.045), 1.3321470408221677e+72; got != want {
			t.Errorf("Pow(999, 24.045) = %v, want %v (the C library's)", got, want)
		}
	}
}
