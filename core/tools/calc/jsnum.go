package calc

import (
	"math"
	"strconv"
	"strings"
)

// FormatNumber returns JavaScript's String(v) for a finite v: the
// shortest digits that read back as v, written plainly when the decimal
// point falls within 21 places of them (1e21 and past, and below 1e-6,
// use exponent form "1.5e+21", "1e-7"). -0 shows as "0".
func FormatNumber(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v < 0:
		return "-" + FormatNumber(-v)
	}
	// "d.ddde±x": the shortest round-trip digits and the exponent.
	e := strconv.FormatFloat(v, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // n: where the decimal point falls after digits[0:n]
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	return out + "e" + sign + strconv.Itoa(abs(n-1))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
