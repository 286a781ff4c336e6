package diff

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// lcsLen is the slow reference: the length of a longest common subsequence
// by dynamic programming. A minimal script has len(a)+len(b)-2·lcs edits.
func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// checkScript verifies that edits turn a into b with consistent positions.
func checkScript(t *testing.T, a, b []string, edits []Edit) {
	t.Helper()
	var gotA, gotB []string
	for _, e := range edits {
		if e.Kind != Insert {
			if e.OldLine != len(gotA) || a[e.OldLine] != e.Text {
				t.Fatalf("bad old position in %+v (a=%q b=%q)", e, a, b)
			}
			gotA = append(gotA, e.Text)
		}
		if e.Kind != Delete {
			if e.NewLine != len(gotB) || b[e.NewLine] != e.Text {
				t.Fatalf("bad new position in %+v (a=%q b=%q)", e, a, b)
			}
			gotB = append(gotB, e.Text)
		}
	}
	if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) {
		t.Fatalf("script does not rebuild: %q %q from %+v", a, b, edits)
	}
}

func randLines(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('a' + r.IntN(4)))
	}
	return out
}

func TestLinesMinimalAgainstDP(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		a, b := randLines(r, r.IntN(12)), randLines(r, r.IntN(12))
		edits := Lines(a, b)
		checkScript(t, a, b, edits)
		changes := 0
		for _, e := range edits {
			if e.Kind != Equal {
				changes++
			}
		}
		if want := len(a) + len(b) - 2*lcsLen(a, b); changes != want {
			t.Fatalf("%q→%q: %d changes, minimal is %d", a, b, changes, want)
		}
	}
}

func TestLinesFallbackStillCorrect(t *testing.T) {
	t.Parallel()
	a := make([]string, MaxEditDistance+10)
	b := make([]string, MaxEditDistance+10)
	for i := range a {
		a[i], b[i] = "a"+strings.Repeat("x", i%7)+string(rune(i)), "b"+string(rune(i))
	}
	checkScript(t, a, b, Lines(a, b))
}

func TestUnified(t *testing.T) {
	t.Parallel()
	old := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	new := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13"
	want := `--- a/f.txt
+++ b/f.txt
@@ -1,6 +1,6 @@
 1
 2
-3
+three
 4
 5
 6
@@ -10,3 +10,4 @@
 10
 11
 12
+13
\ No newline at end of file
`
	if got := Unified("f.txt", old, new); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if Unified("f", "x\n", "x\n") != "" {
		t.Fatal("equal texts must give no diff")
	}
	want2 := "--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+x\n"
	if got := Unified("f", "x", "x\n"); got != want2 {
		t.Fatalf("final newline only:\n%s", got)
	}
	want3 := "--- a/f\n+++ b/f\n@@ -0,0 +1,1 @@\n+x\n"
	if got := Unified("f", "", "x\n"); got != want3 {
		t.Fatalf("creation:\n%s", got)
	}
}

func TestHunksMerge(t *testing.T) {
	t.Parallel()
	a := strings.Split("a b c d e f g h i j k l m n", " ")
	b := slices.Clone(a)
	b[2], b[8] = "C", "I" // 5 equal lines apart: merged with context 3
	if h := Hunks(Lines(a, b), 3); len(h) != 1 {
		t.Fatalf("got %d hunks", len(h))
	}
	b[8], b[12] = "i", "M" // 9 apart: two hunks
	if h := Hunks(Lines(a, b), 3); len(h) != 2 || h[0].OldStart != 0 || h[1].OldStart != 9 {
		t.Fatalf("got %+v", h)
	}
}

func TestApplyFuzzy(t *testing.T) {
	t.Parallel()
	base := strings.Split("p q r s t u v w x y z", " ")
	edited := slices.Clone(base)
	edited[5] = "U"
	hunks := Hunks(Lines(base, edited), 3)

	// Exact re-application.
	if out, ok := ApplyFuzzy(base, hunks, 3); !ok || !slices.Equal(out, edited) {
		t.Fatalf("exact: %q %v", out, ok)
	}
	// Target grew at the top and one context line changed: still applies.
	drift := append([]string{"new1", "new2"}, base...)
	drift[2+3] = "S!"
	want := slices.Clone(drift)
	want[2+5] = "U"
	if out, ok := ApplyFuzzy(drift, hunks, 3); !ok || !slices.Equal(out, want) {
		t.Fatalf("drift: %q %v", out, ok)
	}
	// The deleted line itself changed: refuse.
	bad := slices.Clone(base)
	bad[5] = "changed"
	if _, ok := ApplyFuzzy(bad, hunks, 3); ok {
		t.Fatal("applied over a changed deleted line")
	}
	// Too much context drift: refuse.
	far := slices.Clone(base)
	far[2], far[3], far[4], far[6] = "1", "2", "3", "4"
	if _, ok := ApplyFuzzy(far, hunks, 3); ok {
		t.Fatal("applied with four differing context lines")
	}
}

// TestLinesSplitLarge covers the unique-line split: scattered edits in a
// large file of unique lines give a valid script with exactly the edited
// lines changed.
func TestLinesSplitLarge(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		n := 3000 + r.IntN(3000)
		a := make([]string, n)
		for i := range a {
			a[i] = "line " + strings.Repeat("x", i%5) + string(rune('A'+i%26)) + string(rune(0x4e00+i))
		}
		b := slices.Clone(a)
		changed := 0
		for k := 0; k < 40; k++ {
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i] = b[i] + " edited"
				changed += 2
			case 1:
				b = slices.Insert(b, i, "new line")
				changed++
			case 2:
				b = slices.Delete(b, i, i+1)
				changed++
			}
		}
		edits := Lines(a, b)
		checkScript(t, a, b, edits)
		n2 := 0
		for _, e := range edits {
			if e.Kind != Equal {
				n2++
			}
		}
		if n2 > changed {
			t.Fatalf("%d changes for %d edited lines", n2, changed)
		}
	}
}

func TestLongestIncreasing(t *testing.T) {
	t.Parallel()
	pairs := [][2]int32{{0, 5}, {1, 1}, {2, 2}, {3, 9}, {4, 3}, {5, 4}}
	got := longestIncreasing(pairs)
	want := [][2]int32{{1, 1}, {2, 2}, {4, 3}, {5, 4}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v", got)
	}
}

func TestLinesInRegions(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		a := randLines(r, r.IntN(20))
		// Build b by replacing random non-overlapping stretches of a.
		var b []string
		var regions []Region
		for i := 0; i < len(a); {
			if r.IntN(4) == 0 {
				n := min(r.IntN(3), len(a)-i)
				repl := randLines(r, r.IntN(3))
				regions = append(regions, Region{i, i + n, len(b), len(b) + len(repl)})
				b = append(b, repl...)
				i += n
				if n == 0 {
					b = append(b, a[i])
					i++
				}
				continue
			}
			b = append(b, a[i])
			i++
		}
		edits := LinesInRegions(a, b, regions)
		checkScript(t, a, b, edits)
	}
}
