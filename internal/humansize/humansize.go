// Package humansize renders byte counts for people ("512B", "1.5KB",
// "2.0MB"), the one spelling every tool and engine message uses.
package humansize

import "strconv"

// Format renders a byte count: whole bytes below 1 KiB, then KB, MB and
// GB (powers of 1024) with one decimal.
func Format(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return strconv.FormatInt(n, 10) + "B"
	case n < k*k:
		return strconv.FormatFloat(float64(n)/k, 'f', 1, 64) + "KB"
	case n < k*k*k:
		return strconv.FormatFloat(float64(n)/(k*k), 'f', 1, 64) + "MB"
	}
	return strconv.FormatFloat(float64(n)/(k*k*k), 'f', 1, 64) + "GB"
}
