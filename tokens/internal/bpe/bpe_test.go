package bpe

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func load200k(t testing.TB) *Vocab {
	t.Helper()
	return built(t, "o200k_base")
}

// referenceMerge is tiktoken's merge loop written plainly with a map, the
// oracle for both fast paths.
func referenceMerge(ranks map[string]int, piece string) []int {
	type part struct{ start, rank int }
	parts := make([]part, len(piece)+1)
	rankOf := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := ranks[piece[parts[i].start:parts[i+skip+2].start]]; ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := range parts {
		parts[i] = part{i, math.MaxInt}
	}
	for i := 0; i+2 < len(parts); i++ {
		parts[i].rank = rankOf(i, 0)
	}
	for len(parts) > 1 {
		best, at := math.MaxInt, -1
		for i := 0; i+1 < len(parts); i++ {
			if parts[i].rank < best {
				best, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		parts[at].rank = rankOf(at, 1)
		if at > 0 {
			parts[at-1].rank = rankOf(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	out := make([]int, 0, len(parts)-1)
	for i := 0; i+1 < len(parts); i++ {
		out = append(out, ranks[piece[parts[i].start:parts[i+1].start]])
	}
	return out
}

func rankMap(v *Vocab) map[string]int {
	m := make(map[string]int, v.Len())
	for r := range v.Len() {
		m[v.Token(r)] = r
	}
	return m
}

func TestLookupEveryToken(t *testing.T) {
	t.Parallel()
	v := load200k(t)
	for r := range v.Len() {
		if got, ok := v.Lookup(v.Token(r)); !ok || got != r {
			t.Fatalf("Lookup(token %d %q) = %d, %v", r, v.Token(r), got, ok)
		}
	}
	for _, s := range []string{"", "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", "zzqqxxzzqqxx"} {
		if r, ok := v.Lookup(s); ok {
			t.Errorf("Lookup(%q) found %d", s, r)
		}
	}
}

// randomPiece builds pieces that merge a lot: fragments of real tokens.
func randomPiece(rng *rand.Rand, v *Vocab, n int) string {
	var b []byte
	for len(b) < n {
		switch rng.IntN(4) {
		case 0:
			b = append(b, byte(rng.IntN(256)))
		case 1:
			b = append(b, "ab"[rng.IntN(2)])
		default:
			b = append(b, v.Token(rng.IntN(v.Len()))...)
		}
	}
	return string(b[:n])
}

func TestMergeMatchesReference(t *testing.T) {
	t.Parallel()
	v := load200k(t)
	ranks := rankMap(v)
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + rng.IntN(300)
		if iter%10 == 0 {
			n = 1 + rng.IntN(2000)
		}
		piece := randomPiece(rng, v, n)
		want := referenceMerge(ranks, piece)
		if got := v.Append(nil, piece); !slices.Equal(got, want) {
			t.Fatalf("Append(%q) = %v, want %v", piece, got, want)
		}
		if got := v.Count(piece); got != len(want) {
			t.Fatalf("Count(%q) = %d, want %d", piece, got, len(want))
		}
		// The heap path must agree on short pieces too.
		var large []int
		v.mergeLarge(piece, func(r uint32) { large = append(large, int(r)) })
		if !slices.Equal(large, want) {
			t.Fatalf("mergeLarge(%q) = %v, want %v", piece, large, want)
		}
	}
}

func TestRepeatedBytes(t *testing.T) {
	t.Parallel()
	v := load200k(t)
	ranks := rankMap(v)
	for _, c := range []string{"a", " ", "=", "\n", "ab", "é"} {
		for _, n := range []int{1, 2, 3, 7, 64, 127, 128, 129, 130, 500} {
			var piece string
			for len(piece) < n {
				piece += c
			}
			if got, want := v.Append(nil, piece), referenceMerge(ranks, piece); !slices.Equal(got, want) {
				t.Fatalf("Append(%q×%d) = %v, want %v", c, n, got, want)
			}
		}
	}
}

// TestCacheMatchesAppend runs enough distinct pieces through one cache to
// overflow its arena several times, checking every answer against the
// uncached merge, and repeats pieces so hits happen too.
func TestCacheMatchesAppend(t *testing.T) {
	t.Parallel()
	v := load200k(t)
	c := NewCache()
	rng := rand.New(rand.NewPCG(3, 4))
	var pieces []string
	for total := 0; total < 3*maxArena; {
		p := randomPiece(rng, v, 1+rng.IntN(40))
		pieces = append(pieces, p)
		total += len(p)
	}
	for round := 0; round < 2; round++ {
		for i, p := range pieces {
			if round == 1 && i%7 != 0 {
				continue
			}
			want := v.Append(nil, p)
			if got := v.CountCached(p, c); got != len(want) {
				t.Fatalf("CountCached(%q) = %d, want %d", p, got, len(want))
			}
			if got := v.AppendCached(nil, p, c); !slices.Equal(got, want) {
				t.Fatalf("AppendCached(%q) = %v, want %v", p, got, want)
			}
			text := "xx" + p + "0123456789"
			if got := v.CountPieces(text, 2, []int{2 + len(p)}, c); got != len(want) {
				t.Fatalf("CountPieces(%q) = %d, want %d", p, got, len(want))
			}
		}
	}
}

// Pieces longer than MaxMergeWindow are merged in windows; for runs of one
// repeated byte (and of a repeated two-byte character) that gives exactly
// the whole-piece merge. mergeWindow over the whole piece is the oracle.
func TestWindowedMergeOfRuns(t *testing.T) {
	t.Parallel()
	v := load200k(t)
	for _, c := range []string{"a", " ", "=", "\n", "0", "é"} {
		for _, n := range []int{MaxMergeWindow, MaxMergeWindow + 1, 2*MaxMergeWindow + 77} {
			piece := strings.Repeat(c, n/len(c))
			var whole []uint32
			v.mergeWindow(piece, func(r uint32) { whole = append(whole, r) })
			got := v.Append(nil, piece)
			if len(got) != len(whole) {
				t.Fatalf("%q×%d: windowed %d tokens, whole %d", c, len(piece), len(got), len(whole))
			}
			for i := range got {
				if uint32(got[i]) != whole[i] {
					t.Fatalf("%q×%d: token %d differs", c, len(piece), i)
				}
			}
			if v.Count(piece) != len(whole) {
				t.Fatalf("%q×%d: Count %d, want %d", c, len(piece), v.Count(piece), len(whole))
			}
		}
	}
}

// Windowed merging of long pieces against the whole-piece merge on mixed
// text (random bytes, "ab" runs and real tokens glued together), not only
// runs of one character.
func TestWindowedMergeOfMixedPieces(t *testing.T) {
	t.Parallel()
	v := load200k(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 6 {
		piece := randomPiece(rng, v, 2*MaxMergeWindow+rng.IntN(MaxMergeWindow))
		var whole []uint32
		v.mergeWindow(piece, func(r uint32) { whole = append(whole, r) })
		got := v.Append(nil, piece)
		if len(got) != len(whole) {
			t.Fatalf("piece %d (%d bytes): windowed %d tokens, whole %d", i, len(piece), len(got), len(whole))
		}
		for j := range got {
			if uint32(got[j]) != whole[j] {
				t.Fatalf("piece %d: token %d differs", i, j)
			}
		}
	}
}
