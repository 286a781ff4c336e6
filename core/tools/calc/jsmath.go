package calc

import (
	"math"

	"github.com/gopi-agent/gopi/native/libm"
)

// maxIntegerPowExponent is the largest integer exponent JavaScriptCore
// raises by repeated squaring rather than with the C library's pow.
const maxIntegerPowExponent = 1000

// jsPow is x ** y as JavaScriptCore (Bun, omp's engine) computes it, so
// results agree with omp to the last bit:
//   - a base of magnitude 1 to an infinite power is NaN (math.Pow gives 1);
//   - y = 0.5 and y = -0.5 are a square root and its reciprocal;
//   - an integer y in 0..1000 is done by repeated squaring, which can
//     differ from a correctly rounded pow in the last place
//     (1.1 ** 10 is 2.593742460100002, not ...0023);
//   - anything else is the C library's pow (native/libm).
func jsPow(x, y float64) float64 {
	switch {
	case math.IsNaN(y):
		return math.NaN()
	case math.IsInf(y, 0) && math.Abs(x) == 1:
		return math.NaN()
	case y == 0.5:
		switch {
		case x == 0:
			return 0 // (-0) ** 0.5 is +0
		case math.IsInf(x, -1):
			return math.Inf(1)
		}
		return math.Sqrt(x)
	case y == -0.5:
		switch {
		case x == 0:
			return math.Inf(1) // (-0) ** -0.5 is +Infinity
		case math.IsInf(x, -1):
			return 0
		}
		return 1 / math.Sqrt(x)
	case y >= 0 && y <= maxIntegerPowExponent && y == math.Trunc(y):
		r := 1.0
		for n := int(y); n != 0; n >>= 1 {
			if n&1 != 0 {
				r = float64(r * x)
			}
			x = float64(x * x)
		}
		return r
	}
	return libm.Pow(x, y)
}
