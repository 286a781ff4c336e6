package perf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Verdict is what a comparison of A with B says.
type Verdict string

// The three verdicts. A ratio is only ever reported with one of them.
const (
	Faster      Verdict = "faster"       // the whole interval of A/B is below 1 (beyond MinEffect)
	Slower      Verdict = "slower"       // the whole interval of A/B is above 1 (beyond MinEffect)
	WithinNoise Verdict = "within noise" // the interval reaches 1, or the change is below MinEffect
)

// Comparison is A measured against B (for times: below 1 means A is faster).
type Comparison struct {
	Ratio  float64 // the median ratio A/B
	Lo, Hi float64 // its 95 % bootstrap interval
	N      int     // pairs (paired) or the smaller sample count (unpaired)
	Paired bool    // the ratio was taken run by run over alternated runs
}

// ComparePaired compares two equally long sample lists taken alternately
// (a[i] and b[i] in the same round): the ratio is the median of a[i]/b[i]
// and the interval is bootstrapped over the pairs, so a drift of the
// machine's speed during the run cancels out. Lists of unequal length, or
// with a zero in b, fall back to CompareUnpaired.
func ComparePaired(a, b []float64) Comparison {
	if len(a) != len(b) || len(a) == 0 {
		return CompareUnpaired(a, b)
	}
	ratios := make([]float64, len(a))
	for i := range a {
		if b[i] <= 0 {
			return CompareUnpaired(a, b)
		}
		ratios[i] = a[i] / b[i]
	}
	sort.Float64s(ratios)
	c := Comparison{Ratio: median(ratios), N: len(ratios), Paired: true}
	c.Lo, c.Hi = bootstrap(ratios, median)
	return c
}

// CompareUnpaired compares samples taken separately: the ratio of the
// medians, with an interval from resampling each side independently.
func CompareUnpaired(a, b []float64) Comparison {
	if len(a) == 0 || len(b) == 0 {
		return Comparison{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	sa := append([]float64(nil), a...)
	sb := append([]float64(nil), b...)
	sort.Float64s(sa)
	sort.Float64s(sb)
	c := Comparison{N: min(len(a), len(b))}
	mb := median(sb)
	if mb <= 0 {
		return Comparison{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: c.N}
	}
	c.Ratio = median(sa) / mb
	if len(a) == 1 && len(b) == 1 {
		c.Lo, c.Hi = c.Ratio, c.Ratio
		return c
	}
	// Resample each side independently and take the ratio of the medians.
	rng := rand.New(rand.NewPCG(seedOf(sa), seedOf(sb)))
	ba := make([]float64, len(sa))
	bb := make([]float64, len(sb))
	ratios := make([]float64, resamples)
	for i := range ratios {
		for j := range ba {
			ba[j] = sa[rng.IntN(len(sa))]
		}
		for j := range bb {
			bb[j] = sb[rng.IntN(len(sb))]
		}
		sort.Float64s(ba)
		sort.Float64s(bb)
		ratios[i] = median(ba) / median(bb)
	}
	sort.Float64s(ratios)
	alpha := (1 - Confidence) / 2
	c.Lo, c.Hi = quantile(ratios, alpha), quantile(ratios, 1-alpha)
	return c
}

// Verdict classifies the comparison: Slower when the whole interval lies
// above 1+minEffect, Faster when it lies below 1/(1+minEffect), within
// noise otherwise (an interval that cannot be computed is within noise).
// minEffect 0 asks only that the interval exclude 1.
func (c Comparison) Verdict(minEffect float64) Verdict {
	if math.IsNaN(c.Lo) || math.IsNaN(c.Hi) || c.N < 2 {
		return WithinNoise
	}
	switch {
	case c.Lo > 1+minEffect:
		return Slower
	case c.Hi < 1/(1+minEffect):
		return Faster
	}
	return WithinNoise
}

// String renders the comparison as a reader should see it, e.g.
// "0.62× (0.58–0.66), faster" or "1.03× (0.97–1.10), within noise".
func (c Comparison) String() string {
	if math.IsNaN(c.Ratio) {
		return "—"
	}
	if c.N < 2 {
		return fmt.Sprintf("%.2f× (one sample each: no interval)", c.Ratio)
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f), %s", c.Ratio, c.Lo, c.Hi, c.Verdict(0))
}
