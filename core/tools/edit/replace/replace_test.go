package replace

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	text := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	cases := []struct {
		name, old, new string
		all            bool
		want           string
		err            error
		tolerant       bool
	}{
		{"exact unique", "func a() {\n\treturn 1", "func a() {\n\treturn 2", false, strings.Replace(text, "return 1", "return 2", 1), nil, false},
		{"ambiguous", "return 1", "return 2", false, "", ErrAmbiguous, false},
		{"all", "return 1", "return 2", true, strings.ReplaceAll(text, "return 1", "return 2"), nil, false},
		{"tolerant reindents", "func b() {\n    return   1\n}", "func b() {\n    return 3\n}", false, "func a() {\n\treturn 1\n}\n\nfunc b() {\n    return 3\n}\n", nil, true},
		{"tolerant keeps file indent", "  func b() {", "  func c() {", false, "func a() {\n\treturn 1\n}\n\nfunc c() {\n\treturn 1\n}\n", nil, true},
		{"missing", "return 42", "x", false, "", ErrNotFound, false},
		{"empty old", "", "x", false, "", ErrEmptyOld, false},
	}
	for _, c := range cases {
		got, m, err := Replace(text, c.old, c.new, c.all, "f.go")
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: err = %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || m.Tolerant != c.tolerant {
			t.Errorf("%s: got %q (%+v), %v; want %q", c.name, got, m, err, c.want)
		}
	}
}

func TestErrorTexts(t *testing.T) {
	t.Parallel()
	text := "a\nneedle one\nb\nneedle two\n"
	_, _, err := Replace(text, "needle", "x", false, "f.txt")
	want := "Found 2 occurrences:\n\n  1 | a\n  2 | needle one\n  3 | b\n  4 | needle two\n  5 | \n\n  1 | a\n  2 | needle one\n  3 | b\n  4 | needle two\n  5 | \n\nAdd more context lines to disambiguate."
	if err == nil || err.Error() != want {
		t.Errorf("ambiguous:\n%v\nwant\n%s", err, want)
	}
	_, _, err = Replace(text, "needle\nthree", "x", false, "f.txt")
	want = "Could not find a close enough match in f.txt.\n\nClosest match (48% similar) at line 2:\n  - needle\n  + needle one\nClosest match was below the 95% similarity threshold."
	if err == nil || err.Error() != want {
		t.Errorf("not found:\n%v\nwant\n%s", err, want)
	}
	many := strings.Repeat("x\n", 7) + strings.Repeat("y", 90)
	_, _, err = Replace(many, "x", "z", false, "f.txt")
	if err == nil || !strings.HasPrefix(err.Error(), "Found 7 occurrences (showing first 5 of 7):\n\n  1 | x\n") ||
		!strings.Contains(err.Error(), "  8 | "+strings.Repeat("y", 79)+"…\n") {
		t.Errorf("many occurrences:\n%v", err)
	}
}

// scoreWindowsReference is the window search as its definition states
// it: every window scored in full with fuzzyLines and similarity.
func scoreWindowsReference(fileLines, oldLines []string, depth bool) closest {
	want := fuzzyLines(oldLines, depth)
	best := closest{confidence: -1, second: -1}
	for start := 0; start+len(oldLines) <= len(fileLines); start++ {
		window := fileLines[start : start+len(oldLines)]
		got := fuzzyLines(window, depth)
		score := 0.0
		for i := range want {
			score += similarity(want[i], got[i])
		}
		score /= float64(len(want))
		if score >= FuzzyThreshold {
			best.above++
		}
		if score > best.confidence {
			best.second = best.confidence
			best.text, best.line, best.confidence = strings.Join(window, "\n"), start+1, score
		} else if score > best.second {
			best.second = score
		}
	}
	return best
}

// checkScorer compares the pruned scorer with the reference on one file
// and old text, in both depth modes. The second best is compared only
// where it decides (the reference tracks it exactly; the scorer only
// where it can matter: above the threshold's reach or the dominance gap).
func checkScorer(t *testing.T, text, oldText string) {
	t.Helper()
	fileLines, oldLines := strings.Split(text, "\n"), strings.Split(oldText, "\n")
	if len(oldLines) > len(fileLines) {
		return
	}
	for _, depth := range []bool{true, false} {
		want := scoreWindowsReference(fileLines, oldLines, depth)
		got := newScorer(fileLines, oldLines).scoreWindows(depth)
		if got.confidence != want.confidence || got.line != want.line || got.text != want.text ||
			got.above != want.above || got.accepted() != want.accepted() || got.cut {
			t.Fatalf("depth %v, old %q in %q:\n got %+v\nwant %+v", depth, oldText, text, got, want)
		}
	}
}

func TestScorerMatchesReference(t *testing.T) {
	t.Parallel()
	text := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n\tif x {\n\t\ty()\n\t}\n"
	for _, old := range []string{"return 1", "func b() {\n    return 2\n}", "needle\nthree", "\tif x {\n\t\tz()\n\t}", "}\n\nfunc c() {", "x"} {
		checkScorer(t, text, old)
	}
}

// FuzzScorerMatchesReference holds the pruned near-match search equal to
// the full one on generated files and old texts.
func FuzzScorerMatchesReference(f *testing.F) {
	f.Add("func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n", "func b() {\n    return 2\n}")
	f.Add("a\nneedle one\nb\nneedle two\n", "needle\nthree")
	f.Add("  x = 1\n    y = 2\n  z = 3\n", "x = 1\n  y = 3")
	f.Fuzz(func(t *testing.T, text, oldText string) {
		if len(text) > 4000 || len(oldText) > 400 || oldText == "" {
			return
		}
		checkScorer(t, text, oldText)
	})
}

// A file too large for the near-match search gets an error that says so
// instead of a search that runs for minutes.
func TestNearMatchSearchIsBounded(t *testing.T) {
	saved := maxCells
	maxCells = 10_000
	t.Cleanup(func() { maxCells = saved })
	text := strings.Repeat("some line of code that is fairly long\n", 2000)
	_, _, err := Replace(text, "another line of code that is long\nand a second line", "x", false, "big.txt")
	if err == nil || !strings.Contains(err.Error(), "too large to search for a near match of 2 lines") {
		t.Fatalf("err = %v", err)
	}
}

// BenchmarkNearMatchMiss is the cost of an old text that matches nothing
// in a 5,000-line file (the near-match search over every window).
func BenchmarkNearMatchMiss(b *testing.B) {
	var sb strings.Builder
	for i := range 5000 {
		sb.WriteString("\tvalue" + strconv.Itoa(i) + " := compute(input, " + strconv.Itoa(i*7) + ") // step\n")
	}
	text := sb.String()
	old := "\tnothing := here(at, all)\n\tand := more(lines)\n\treturn nothing"
	for b.Loop() {
		Replace(text, old, "x", false, "f.go")
	}
}
