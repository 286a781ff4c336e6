//go:build !cgo

package libm

import "math"

// Native reports whether Pow is the C library's.
const Native = false

// Pow returns math.Pow(x, y): without cgo there is no C library to call.
func Pow(x, y float64) float64 { return math.Pow(x, y) }
