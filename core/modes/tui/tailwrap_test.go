package tui

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// wrapRows on its own: breaks at spaces, cuts long words, keeps a line's
// indentation and its empty lines, counts wide characters as two.
func TestWrapRows(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"one two three", 7, []string{"one two", "three"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"ab cdefgh", 4, []string{"ab", "cdef", "gh"}},
		{"  indented code\n\nnext", 20, []string{"  indented code", "", "next"}},
		{"日本語のテキスト", 6, []string{"日本語", "のテキ", "スト"}},
		{"", 10, []string{""}},
	} {
		got, _ := wrapRows(c.in, c.width)
		if !slices.Equal(got, c.want) {
			t.Errorf("wrapRows(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

// The incremental wrap of a growing text equals wrapping each prefix
// whole (the oracle), at every prefix of random texts and widths.
func TestTailWrapMatchesWholeWrap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 39))
	pieces := []string{"a", "bb", "word", "longerword", "averyveryverylongword", " ", "  ", "\n", "\n\n", "日本", "é", "    code", "x"}
	for round := range 300 {
		var b strings.Builder
		for range 1 + rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		width := 1 + rng.IntN(24)
		n := 1 + rng.IntN(8)
		var tw tailWrap
		for end := 0; end <= len(text); end += 1 + rng.IntN(3) {
			prefix := strings.ToValidUTF8(text[:end], "")
			if prefix != text[:end] {
				continue // cut inside a character: not a text the stream hands out
			}
			got := tw.update([2]int{0, 0}, prefix, width, n)
			all, _ := wrapRows(prefix, width)
			want := all[max(0, len(all)-n):]
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, width %d, prefix %q:\ngot  %q\nwant %q", round, width, prefix, got, want)
			}
		}
	}
}

// FuzzTailWrap: for any text the model streams (wide characters included;
// it arrives as JSON strings, so as valid UTF-8, cut between characters),
// wrapping it as it grows gives the rows of wrapping it whole. Text with
// escape sequences is left out: they have no width until complete, so a
// row may break elsewhere than in a whole wrap (the live rows are cleaned
// of them anyway, and the finished text is rendered whole).
func FuzzTailWrap(f *testing.F) {
	f.Add("one two three four five six seven", uint8(7), uint8(3))
	f.Add("  indented\n\n日本語のテキスト averyveryverylongword \x1b[31mred\x1b[m", uint8(5), uint8(1))
	f.Add("\xff\xfe bad utf8 \t tab", uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, text string, width, step uint8) {
		text = clean(text)
		w, s := 1+int(width%40), 1+int(step%7)
		var tw tailWrap
		for end := 0; end <= len(text); end += s {
			for end < len(text) && !utf8.RuneStart(text[end]) {
				end++
			}
			got := tw.update([2]int{}, text[:end], w, 4)
			all, _ := wrapRows(text[:end], w)
			if want := all[max(0, len(all)-4):]; !slices.Equal(got, want) {
				t.Fatalf("width %d, prefix %q:\ngot  %q\nwant %q", w, text[:end], got, want)
			}
		}
	})
}
