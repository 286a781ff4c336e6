package pretokenize

// Cl100k splits like cl100k_base's pattern, whose alternatives are, in
// order:
//
//	B1 (?i:'s|'t|'re|'ve|'m|'ll|'d)
//	B2 [^\r\n\p{L}\p{N}]?\p{L}+
//	B3 \p{N}{1,3}
//	B4  ?[^\s\p{L}\p{N}]+[\r\n]*
//	B5 \s*[\r\n]+
//	B6 \s+(?!\S)
//	B7 \s+
func Cl100k(s string, i int) int {
	var end [1]int
	Cl100kBatch(s, i, end[:])
	return end[0]
}

// cl100kGeneral is Cl100k for any character.
func cl100kGeneral(s string, i int) int {
	if s[i] == '\'' {
		if end := contraction(s, i); end > i {
			return end
		}
	}
	c0, w0 := classAt(s, i)
	if c0&clsLetter != 0 {
		return run(s, i, clsLetter)
	}
	if c0&clsPrefix != 0 && i+w0 < len(s) {
		if c1, _ := classAt(s, i+w0); c1&clsLetter != 0 {
			return run(s, i+w0, clsLetter)
		}
	}
	if c0&clsNumber != 0 {
		return numbers(s, i)
	}
	if end := punctuation(s, i, c0, false); end >= 0 {
		return end
	}
	return whitespace(s, i)
}
