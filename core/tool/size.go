package tool

import "strconv"

// FormatSize renders a byte count for people: "512B", "1.5KB", "2.0MB".
func FormatSize(n int64) string {
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
