package linehash

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
)

// sumInPieces hashes text written in pieces cut at the given offsets.
func sumInPieces(line int, text string, cuts []int) string {
	h := New(line)
	prev := 0
	for _, c := range cuts {
		h.Write([]byte(text[prev:c]))
		prev = c
	}
	h.Write([]byte(text[prev:]))
	return h.Sum()
}

// pieces of lines: letters, digits, ASCII and Unicode white space, '\r',
// multi-byte characters and invalid UTF-8.
var pieces = []string{"a", "Z", "7", " ", "\t", "\r", "\v", "\f", "\u00a0", "\u2003", "\u3000", "é", "€", "😀", "٣",
	"-", "{", "}", "\xe2", "\x82", "\xac", "\xff", "\xc2", "\xa0", "\xf0\x9f", "\u0085"}

func randomLine(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(40) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func TestSumMatchesLineHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200000 {
		text := randomLine(r)
		if i%10 == 0 {
			// Long enough for many 16-byte stripes of the streaming
			// digest, cut at every offset within a stripe.
			text = strings.Repeat(text+"x", 1+r.IntN(200)) + randomLine(r)
		}
		if r.IntN(4) == 0 {
			text += "\n"
		}
		line := 1 + r.IntN(5000)
		var cuts []int
		for range r.IntN(6) {
			cuts = append(cuts, r.IntN(len(text)+1))
		}
		slices.Sort(cuts)
		want := hashline.LineHash(line, text)
		if got := sumInPieces(line, text, cuts); got != want {
			t.Fatalf("line %d %q cut at %v: %s, LineHash says %s", line, text, cuts, got, want)
		}
	}
}

func TestSumLongLine(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("a", 3<<20),
		strings.Repeat(" ", 3<<20),
		strings.Repeat("-", 3<<20) + "\r\n",
		"x" + strings.Repeat("\u3000", 1<<20),
		strings.Repeat("ab\r", 1<<20) + "  \t",
	} {
		var cuts []int
		for c := 8191; c < len(text); c += 8192 {
			cuts = append(cuts, c)
		}
		if got, want := sumInPieces(42, text, cuts), hashline.LineHash(42, text); got != want {
			t.Fatalf("%q...: %s, LineHash says %s", text[:10], got, want)
		}
	}
	if got, want := New(3).Sum(), hashline.LineHash(3, ""); got != want {
		t.Fatalf("empty line: %s, LineHash says %s", got, want)
	}
}

func FuzzSum(f *testing.F) {
	f.Add(7, "func main() {\r\n", 3)
	f.Add(1, " \u00a0\t", 1)
	f.Add(9, "\xe2\x82\xac \xe2", 2)
	f.Fuzz(func(t *testing.T, line int, text string, cut int) {
		if line < 1 {
			line = 1
		}
		cut = min(max(cut, 0), len(text))
		if got, want := sumInPieces(line, text, []int{cut}), hashline.LineHash(line, text); got != want {
			t.Fatalf("%q cut at %d: %s, LineHash says %s", text, cut, got, want)
		}
	})
}
