package applypatch

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSimilarity(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"abc", "abc", 1},
		{"three", "one", 1 - 4.0/5},
		{"kitten", "sitting", 1 - 3.0/7},
		{"é", "e", 0},
	} {
		if got := similarity(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("similarity(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestFuzzyLine(t *testing.T) {
	// omp folds „ ‟ « » (not curly “ ”), ‚ ‛ ` ´, six dashes, and blank runs.
	got := fuzzyLine("\t a\u2014b  \t«c» `d´ \u201Ce\u201D ")
	if want := "a-b \"c\" 'd' \u201Ce\u201D"; got != want {
		t.Errorf("fuzzyLine = %q, want %q", got, want)
	}
}

func TestPercent(t *testing.T) {
	for conf, want := range map[float64]int{0.425: 43, 0.2249: 22, 0.955: 96, 1: 100, 0: 0} {
		if got := percent(conf); got != want {
			t.Errorf("percent(%v) = %d, want %d", conf, got, want)
		}
	}
}

func TestPreviewCutsLongLines(t *testing.T) {
	lines := []string{"a", strings.Repeat("x", 81), "c", "d"}
	got := preview(lines, 1, 1)
	want := "  1 | a\n  2 | " + strings.Repeat("x", 79) + "…\n  3 | c"
	if got != want {
		t.Errorf("preview = %q, want %q", got, want)
	}
}

func TestReindent(t *testing.T) {
	for _, c := range []struct {
		name                         string
		pattern, actual, added, want []string
	}{
		{"deeper", []string{"if x:", "  y()"}, []string{"    if x:", "      y()"}, []string{"if z:", "  w()", ""}, []string{"    if z:", "      w()", ""}},
		{"shallower", []string{"    a", "    b"}, []string{"a", "b"}, []string{"    A", "  B"}, []string{"A", "B"}},
		{"uneven shift kept", []string{"a", "b"}, []string{"  a", "    b"}, []string{"A"}, []string{"A"}},
		{"indentation-only change kept", []string{"a"}, []string{"  a"}, []string{"    a"}, []string{"    a"}},
		{"same lines kept", []string{"a"}, []string{"a"}, []string{"b"}, []string{"b"}},
	} {
		if got := reindent(c.pattern, c.actual, c.added); !slices.Equal(got, c.want) {
			t.Errorf("%s: reindent = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestReindentLines(t *testing.T) {
	for _, c := range []struct {
		name                         string
		pattern, actual, added, want []string
	}{
		// Two levels give width 4 and offset 2: 2 + 4·tabs spaces.
		{"spaces to tabs with an offset", []string{"  a", "      b"}, []string{"\ta", "\t\tb"}, []string{"  a", "      b", "          c"}, []string{"\ta", "\t\tb", "\t\t\tc"}},
		{"tabs to spaces", []string{"\ta", "\t\tb"}, []string{"  a", "    b"}, []string{"\ta", "\t\tc"}, []string{"  a", "    c"}},
		{"context keeps the file's text", []string{"a", "b"}, []string{"    a", "    b"}, []string{"a", "x", "b"}, []string{"    a", "    x", "    b"}},
		{"deeper added line not shifted", []string{"a", "b"}, []string{"    a", "    b"}, []string{"a", "  x"}, []string{"    a", "  x"}},
	} {
		if got := reindentLines(c.pattern, c.actual, c.added); !slices.Equal(got, c.want) {
			t.Errorf("%s: reindentLines = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSimilarityOfHugeLinesIsBounded(t *testing.T) {
	a, b := strings.Repeat("a", 5000), strings.Repeat("a", 4999)+"b"
	if got := similarity(a, b); got != 0 {
		t.Errorf("similarity of two 5,000-character lines = %v, want 0 (not scored)", got)
	}
	if got := similarity(a, a); got != 1 {
		t.Errorf("similarity of equal huge lines = %v, want 1", got)
	}
}
