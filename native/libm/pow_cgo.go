//go:build cgo

package libm

/*
#cgo LDFLAGS: -lm
#include <math.h>

static double gopi_pow(double x, double y) { return pow(x, y); }
*/
import "C"

// Native reports whether Pow is the C library's.
const Native = true

// Pow returns x**y as the C library's pow computes it.
func Pow(x, y float64) float64 { return float64(C.gopi_pow(C.double(x), C.double(y))) }
