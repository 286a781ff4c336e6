package fuzzy

import (
	"testing"
	"unicode/utf8"
)

// checkAgainstReference compares Score and Positions with the oracle.
func checkAgainstReference(t *testing.T, query, cand string) {
	t.Helper()
	m := NewMatcher(query)
	var sc Scratch
	got, ok := m.Score(cand, &sc)
	want, _, wantOK := refScore(query, cand)
	if ok != wantOK || (ok && got != want) {
		t.Fatalf("Score(%q, %q) = %d,%v; reference %d,%v", query, cand, got, ok, want, wantOK)
	}
	ps, pos, pok := m.Positions(cand)
	if pok != ok || ps != got {
		t.Fatalf("Positions(%q, %q) score %d,%v; Score %d,%v", query, cand, ps, pok, got, ok)
	}
	if !ok {
		return
	}
	// The positions must be a valid alignment with exactly that score.
	offs := map[int]int{} // byte offset → rune index
	ri := 0
	for off := range cand {
		offs[off] = ri
		ri++
	}
	runes := []rune(cand)
	idx := make([]int, len(pos))
	for i, p := range pos {
		r, found := offs[p]
		if !found || (i > 0 && r <= idx[i-1]) {
			t.Fatalf("Positions(%q, %q) = %v: not increasing rune starts", query, cand, pos)
		}
		idx[i] = r
	}
	if s := refAlignmentScore(runes, idx); s != got {
		t.Fatalf("Positions(%q, %q) = %v scores %d, want %d", query, cand, pos, s, got)
	}
}

func TestScoreTable(t *testing.T) {
	t.Parallel()
	better := []struct{ query, hi, lo string }{
		{"main", "cmd/main.go", "cmd/mxaxixn.go"},
		{"fb", "foo/bar", "foobar"},
		{"fb", "foo_bar", "foobar"},
		{"fb", "fooBar", "foobar"},
		{"ab", "ab", "a_b"},
		{"abc", "abc", "a_b_c"},
		{"srv", "http/server.go", "http/sxrxvx.go"},
		{"go", "x/y.go", "go/x/y"},
	}
	for _, tt := range better {
		m := NewMatcher(tt.query)
		var sc Scratch
		hi, ok1 := m.Score(tt.hi, &sc)
		lo, ok2 := m.Score(tt.lo, &sc)
		if !ok1 || !ok2 || hi <= lo {
			t.Errorf("%q: %q scored %d, %q scored %d; want the first higher", tt.query, tt.hi, hi, tt.lo, lo)
		}
		checkAgainstReference(t, tt.query, tt.hi)
		checkAgainstReference(t, tt.query, tt.lo)
	}
	// smart case
	var sc Scratch
	if _, ok := NewMatcher("readme").Score("README.md", &sc); !ok {
		t.Error("lower-case query must ignore case")
	}
	if _, ok := NewMatcher("ReadMe").Score("README.md", &sc); ok {
		t.Error("mixed-case query must match case")
	}
	if _, ok := NewMatcher("k").Score("\u212a", &sc); !ok { // Kelvin sign folds to k
		t.Error("Kelvin sign should fold to k")
	}
	if s, pos, ok := NewMatcher("é").Positions("a/café"); !ok || len(pos) != 1 || pos[0] != 5 || s <= 0 {
		t.Errorf("Positions over UTF-8 = %d %v %v", s, pos, ok)
	}
}

func TestScoreNoAlloc(t *testing.T) {
	m := NewMatcher("srvgo")
	var sc Scratch
	cands := []string{"src/net/http/server.go", "src/go/build/read.go", "nothing/here.txt"}
	for _, c := range cands {
		m.Score(c, &sc)
	}
	if a := testing.AllocsPerRun(100, func() {
		for _, c := range cands {
			m.Score(c, &sc)
		}
	}); a != 0 {
		t.Fatalf("Score allocates %.1f times", a)
	}
}

// TestScoreExhaustive sweeps every query of up to 3 and candidate of up to
// 6 characters over an alphabet that exercises every bonus rule.
func TestScoreExhaustive(t *testing.T) {
	t.Parallel()
	qAlpha := []string{"a", "b", "A", "/", "1"}
	cAlpha := []string{"a", "b", "B", "/", "_", "1", "é"}
	gen := func(alpha []string, n int) []string {
		out := []string{""}
		frontier := []string{""}
		for range n {
			var next []string
			for _, p := range frontier {
				for _, c := range alpha {
					next = append(next, p+c)
				}
			}
			out = append(out, next...)
			frontier = next
		}
		return out
	}
	cands := gen(cAlpha, 5)
	if testing.Short() {
		cands = cands[:2000]
	}
	for _, q := range gen(qAlpha, 3) {
		for _, c := range cands {
			checkAgainstReference(t, q, c)
		}
	}
}

func FuzzScore(f *testing.F) {
	for _, s := range [][2]string{
		{"hs", "net/http/server.go"},
		{"fB", "fooBar_baz"},
		{"ab", "a/b/ab"},
		{"é", "cAfÉ"},
		{"k", "\u212a"},
		{"a1", "abc123"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, query, cand string) {
		// The oracle enumerates alignments; keep it cheap.
		if utf8.RuneCountInString(query) > 5 || utf8.RuneCountInString(cand) > 16 {
			t.Skip()
		}
		checkAgainstReference(t, query, cand)
	})
}
