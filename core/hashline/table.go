package hashline

// BigramCount is the number of two-letter hashes: 676 lowercase pairs minus
// the 29 left out (the principle is on Bigrams). Being prime, 647 lets
// h mod 647 depend on every bit of the 64-bit hash.
const BigramCount = 647

// omittedOrdinals are the three English ordinal suffixes that, glued to a
// line number, spell a correct ordinal for some numbers (1st, 22nd, 3rd).
// An anchor such as `21st` invites a reader or a model to take it for a
// word and "fix" or drop the letters. "th" is kept: `41th` is the format's
// documented example in the reference docs and prompts, so it must stay a
// producible anchor.
var omittedOrdinals = [...]string{"st", "nd", "rd"}

// bigrams is the frozen anchor alphabet, in lexicographic order.
var bigrams = buildBigrams()

// Bigrams returns the 647 anchor hashes in table order: index i is the
// hash of every line whose 64-bit value is i mod 647.
//
// Principle for the 29 pairs left out of the 676: a pair is omitted when an
// anchor ending in it is easy to misread or mistype.
//   - The 26 doubled letters (aa … zz): a run of one letter is easy to
//     miscount when copied back, and `ll`/`oo` next to digits look like
//     `11`/`00`, blurring where the line number ends.
//   - The 3 ordinal suffixes st, nd, rd (see omittedOrdinals).
//
// The table is built by a rule, but the rule's output is locked by
// TestBigramTableGolden against testdata/bigrams.golden: never edit it.
func Bigrams() []string { return append([]string(nil), bigrams[:]...) }

// bigramIndex maps a pair (first-'a')*26+(second-'a') to its index in
// bigrams, or -1 for an omitted pair.
var bigramIndex = buildBigramIndex()

// IsBigram reports whether s is one of the 647 anchor hashes.
func IsBigram(s string) bool {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'z' || s[1] < 'a' || s[1] > 'z' {
		return false
	}
	return bigramIndex[int(s[0]-'a')*26+int(s[1]-'a')] >= 0
}

// omitted reports whether the pair a,b is left out of the table.
func omitted(a, b byte) bool {
	if a == b {
		return true
	}
	for _, o := range omittedOrdinals {
		if o[0] == a && o[1] == b {
			return true
		}
	}
	return false
}

// buildBigrams lays the pairs out in one string and slices it: one
// allocation at start-up instead of one per pair.
func buildBigrams() [BigramCount]string {
	var t [BigramCount]string
	pairs := make([]byte, 0, 2*BigramCount)
	for a := byte('a'); a <= 'z'; a++ {
		for b := byte('a'); b <= 'z'; b++ {
			if !omitted(a, b) {
				pairs = append(pairs, a, b)
			}
		}
	}
	if len(pairs) != 2*BigramCount {
		panic("hashline: bigram rule does not yield 647 pairs")
	}
	all := string(pairs)
	for i := range t {
		t[i] = all[2*i : 2*i+2]
	}
	return t
}

func buildBigramIndex() [676]int16 {
	var idx [676]int16
	for i := range idx {
		idx[i] = -1
	}
	for i, s := range bigrams {
		idx[int(s[0]-'a')*26+int(s[1]-'a')] = int16(i)
	}
	return idx
}
