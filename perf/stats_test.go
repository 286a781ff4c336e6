package perf

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSummarizeMedianAndInterval(t *testing.T) {
	s := Summarize([]float64{5, 1, 3, 2, 4})
	if s.N != 5 || s.Median != 3 || s.Min != 1 || s.Max != 5 {
		t.Fatalf("summary %+v", s)
	}
	if !(s.Lo <= s.Median && s.Median <= s.Hi) || s.Lo < 1 || s.Hi > 5 {
		t.Fatalf("interval %v–%v does not hold the median within the data", s.Lo, s.Hi)
	}
	if again := Summarize([]float64{5, 1, 3, 2, 4}); again != s {
		t.Fatalf("same samples, different summary: %+v vs %+v", again, s)
	}
	if e := Summarize([]float64{4, 1}); e.Median != 2.5 {
		t.Fatalf("even median %v, want 2.5", e.Median)
	}
	if one := Summarize([]float64{7}); one.Lo != 7 || one.Hi != 7 {
		t.Fatalf("one sample: %+v", one)
	}
	if z := Summarize(nil); z.N != 0 {
		t.Fatalf("no samples: %+v", z)
	}
}

// noisy returns n samples around base with multiplicative noise of ±spread
// and an occasional slow outlier, as a loaded machine gives.
func noisy(rng *rand.Rand, n int, base, spread float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = base * (1 + spread*(2*rng.Float64()-1))
		if rng.IntN(10) == 0 {
			out[i] *= 1.6
		}
	}
	return out
}

func TestCompareVerdicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := noisy(rng, 20, 100, 0.08)
	slow := noisy(rng, 20, 120, 0.08)
	same := noisy(rng, 20, 100, 0.08)
	fast := noisy(rng, 20, 70, 0.08)
	for _, tc := range []struct {
		name string
		c    Comparison
		want Verdict
	}{
		{"paired 20% slower", ComparePaired(slow, base), Slower},
		{"unpaired 20% slower", CompareUnpaired(slow, base), Slower},
		{"paired unchanged", ComparePaired(same, base), WithinNoise},
		{"unpaired unchanged", CompareUnpaired(same, base), WithinNoise},
		{"paired faster", ComparePaired(fast, base), Faster},
	} {
		if got := tc.c.Verdict(0.05); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.c, tc.want)
		}
	}
}

func TestComparePairedCancelsDrift(t *testing.T) {
	// The machine slows down steadily; B is always 10 % faster than A in the
	// same round. Unpaired, the drift swamps the difference; paired, not.
	var a, b []float64
	for i := 0; i < 16; i++ {
		speed := 1 + float64(i)*0.2
		a = append(a, 100*speed)
		b = append(b, 90*speed)
	}
	p := ComparePaired(a, b)
	if p.Verdict(0) != Slower || math.Abs(p.Ratio-100.0/90) > 1e-9 {
		t.Fatalf("paired: %s", p)
	}
	if u := CompareUnpaired(a, b); u.Verdict(0) != WithinNoise {
		t.Fatalf("unpaired should not see through the drift: %s", u)
	}
}

func TestComparisonStringNeverBare(t *testing.T) {
	c := ComparePaired([]float64{1, 1.1, 0.9, 1}, []float64{1, 1, 1, 1.05})
	if s := c.String(); !containsAny(s, "faster", "slower", "within noise") {
		t.Fatalf("comparison printed without a verdict: %q", s)
	}
	if s := CompareUnpaired([]float64{2}, []float64{1}).String(); !containsAny(s, "no interval") {
		t.Fatalf("one-sample comparison should say it has no interval: %q", s)
	}
	if c := CompareUnpaired(nil, []float64{1}); c.Verdict(0) != WithinNoise || c.String() != "—" {
		t.Fatalf("empty side: %v %q", c.Verdict(0), c.String())
	}
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if len(sub) <= len(s) {
			for i := 0; i+len(sub) <= len(s); i++ {
				if s[i:i+len(sub)] == sub {
					return true
				}
			}
		}
	}
	return false
}
