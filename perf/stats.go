package perf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Confidence is the coverage of the intervals this package computes.
const Confidence = 0.95

// resamples is the number of bootstrap resamples per interval: enough for
// stable 2.5 % and 97.5 % quantiles, cheap for the sample counts benchmarks
// have (tens).
const resamples = 2000

// Summary is one command's samples reduced to what a reader needs.
type Summary struct {
	N      int     // number of samples
	Median float64 // the sample median
	Lo, Hi float64 // the 95 % bootstrap interval of the median (Lo == Hi == Median for one sample)
	Min    float64 // the smallest sample
	Max    float64 // the largest sample
}

// Summarize returns the median of samples and a percentile-bootstrap
// interval of it. The resampling is seeded from the samples themselves, so
// the same samples always give the same interval. It returns the zero
// Summary for no samples.
func Summarize(samples []float64) Summary {
	if len(samples) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), samples...)
	sort.Float64s(s)
	sum := Summary{N: len(s), Median: median(s), Min: s[0], Max: s[len(s)-1]}
	sum.Lo, sum.Hi = bootstrap(s, median)
	return sum
}

// median of sorted s.
func median(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// bootstrap returns the percentile interval of stat over resamples of s
// (with replacement, same size). stat receives a sorted slice.
func bootstrap(s []float64, stat func([]float64) float64) (lo, hi float64) {
	if len(s) == 1 {
		v := stat(s)
		return v, v
	}
	rng := rand.New(rand.NewPCG(seedOf(s), uint64(len(s))))
	buf := make([]float64, len(s))
	stats := make([]float64, resamples)
	for i := range stats {
		for j := range buf {
			buf[j] = s[rng.IntN(len(s))]
		}
		sort.Float64s(buf)
		stats[i] = stat(buf)
	}
	sort.Float64s(stats)
	alpha := (1 - Confidence) / 2
	return quantile(stats, alpha), quantile(stats, 1-alpha)
}

// quantile of sorted s at q in [0, 1], interpolating between neighbours.
func quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	f := pos - float64(i)
	return s[i]*(1-f) + s[i+1]*f
}

// seedOf derives a resampling seed from the samples' bits.
func seedOf(s []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range s {
		h ^= math.Float64bits(v)
		h *= 1099511628211
	}
	return h
}

// FormatValue prints a measured value with about three significant
// digits: 1234 → "1234", 12.34 → "12.3", 1.234 → "1.23", 0.01234 → "0.0123".
func FormatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}
