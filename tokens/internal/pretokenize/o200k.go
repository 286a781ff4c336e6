package pretokenize

// O200k splits like o200k_base's pattern, whose alternatives are, in order:
//
//	A1 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	A2 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	A3 \p{N}{1,3}
//	A4  ?[^\s\p{L}\p{N}]+[\r\n/]*
//	A5 \s*[\r\n]+
//	A6 \s+(?!\S)
//	A7 \s+
//
// Calling the two bracketed classes "upper" and "lower" (Lm, Lo and marks are
// in both), A1 and A2 first try with the optional prefix character, then
// without it; without it only matters when s[i] is a mark, which is both a
// prefix character and a word character.
func O200k(s string, i int) int {
	var end [1]int
	O200kBatch(s, i, end[:])
	return end[0]
}

// o200kGeneral is O200k for any character.
func o200kGeneral(s string, i int) int {
	c0, w0 := classAt(s, i)
	if c0&(clsPrefix|clsUpper|clsLower) != 0 {
		if end := o200kWord(s, i, c0, w0, upperLower); end >= 0 {
			return end
		}
		if end := o200kWord(s, i, c0, w0, upperThenLower); end >= 0 {
			return end
		}
	}
	if c0&clsNumber != 0 {
		return numbers(s, i)
	}
	if end := punctuation(s, i, c0, true); end >= 0 {
		return end
	}
	return whitespace(s, i)
}

// o200kWord tries one of A1/A2 (body is its middle part) with the prefix
// character, then without; it returns the end including any contraction, or
// -1.
func o200kWord(s string, i int, c0 uint8, w0 int, body func(string, int) int) int {
	if c0&clsPrefix != 0 && i+w0 < len(s) {
		if end := body(s, i+w0); end >= 0 {
			return contraction(s, end)
		}
	}
	if c0&clsUpper != 0 || c0&clsLower != 0 {
		if end := body(s, i); end >= 0 {
			return contraction(s, end)
		}
	}
	return -1
}

// upperLower is `upper*lower+` from s[j] with backtracking: the greedy upper
// run, then a lower run right after it; failing that, the upper run cut back
// to its last character that is also lower (the later ones are not, so the
// lower run is that single character). -1 when neither exists.
func upperLower(s string, j int) int {
	lastLowerEnd := -1
	for j < len(s) {
		c, w := classAt(s, j)
		if c&clsUpper == 0 {
			if c&clsLower != 0 {
				return run(s, j, clsLower)
			}
			break
		}
		j += w
		if c&clsLower != 0 {
			lastLowerEnd = j
		}
	}
	return lastLowerEnd
}

// upperThenLower is `upper+lower*` from s[j], or -1 without an upper
// character there. Greedy runs suffice: lower* cannot fail.
func upperThenLower(s string, j int) int {
	k := run(s, j, clsUpper)
	if k == j {
		return -1
	}
	return run(s, k, clsLower)
}
