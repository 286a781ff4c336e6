package pretokenize

// Splitter returns the end of the piece that starts at s[i], for 0 ≤ i <
// len(s). Every character belongs to exactly one piece and pieces are never
// empty, so a loop `for i < len(s) { j := split(s, i); …; i = j }` covers s.
type Splitter func(s string, i int) int

// Batch fills ends with the ends of the pieces from s[i] on, as many as fit,
// and returns how many it filled (0 only when i == len(s)). Working in
// batches keeps the per-piece cost of the hot loops to the scan itself.
type Batch func(s string, i int, ends []int) int

// O200kBatch is the Batch of O200k: the common ASCII cases decided in the
// loop itself (no call per piece), the rest by o200kGeneral. Whenever a
// decision would depend on a non-ASCII character, the ASCII path leaves j
// at -1 and the general scanner runs from the same position. It and
// Cl100kBatch are the same loop written twice on purpose: a shared loop
// over function values would cost a call per piece.
func O200kBatch(s string, i int, ends []int) int {
	n := 0
	for n < len(ends) && i < len(s) {
		j := -1
		if w, k, ok := wordStart(s, i); ok {
			switch {
			case k&kLetter != 0:
				// With lowercase letters A1 matches up to m; without,
				// A1 fails (ASCII capitals are not "lower") and A2
				// matches the capitals.
				if u, ok := asciiRun(s, w, kUpper); ok {
					if m, ok := asciiRun(s, u, kLower); ok {
						j = m
						if m < len(s) && s[m] == '\'' {
							j = contraction(s, m)
						}
					}
				}
			case k&kDigit != 0:
				j = asciiNumbers(s, i)
			case k&kPunct != 0:
				j = asciiPunct(s, i, true)
			case s[i] == ' ' && kindAt(s, i+1)&kPunct != 0:
				j = asciiPunct(s, i+1, true)
			case k&kSpace != 0:
				j = asciiWhitespace(s, i)
			}
		}
		if j < 0 {
			j = o200kGeneral(s, i)
		}
		ends[n] = j
		n++
		i = j
	}
	return n
}

// Cl100kBatch is the Batch of Cl100k, built as O200kBatch is.
func Cl100kBatch(s string, i int, ends []int) int {
	n := 0
	for n < len(ends) && i < len(s) {
		j := -1
		if s[i] == '\'' {
			if end := contraction(s, i); end > i {
				j = end
			}
		}
		if j < 0 {
			if w, k, ok := wordStart(s, i); ok {
				switch {
				case k&kLetter != 0:
					if m, ok := asciiRun(s, w, kLetter); ok {
						j = m
					}
				case k&kDigit != 0:
					j = asciiNumbers(s, i)
				case k&kPunct != 0:
					j = asciiPunct(s, i, false)
				case s[i] == ' ' && kindAt(s, i+1)&kPunct != 0:
					j = asciiPunct(s, i+1, false)
				case k&kSpace != 0:
					j = asciiWhitespace(s, i)
				}
			}
		}
		if j < 0 {
			j = cl100kGeneral(s, i)
		}
		ends[n] = j
		n++
		i = j
	}
	return n
}

// Pieces splits s with split and returns the pieces; a convenience for tests
// and tools, the encoder walks the split points without allocating.
func Pieces(split Splitter, s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := split(s, i)
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// run returns the end of the run of characters from s[i] whose class has a
// bit of want.
func run(s string, i int, want uint8) int {
	for i < len(s) {
		c, w := classAt(s, i)
		if c&want == 0 {
			break
		}
		i += w
	}
	return i
}

// numbers is \p{N}{1,3} from s[i], whose first character is a number.
func numbers(s string, i int) int {
	for n := 0; n < 3 && i < len(s); n++ {
		c, w := classAt(s, i)
		if c&clsNumber == 0 {
			break
		}
		i += w
	}
	return i
}

// punctuation is ` ?[^\s\p{L}\p{N}]+` followed by a run of trailing
// characters (`[\r\n]*` for cl100k, `[\r\n/]*` for o200k), or -1 when it
// does not match at s[i].
func punctuation(s string, i int, c0 uint8, slashes bool) int {
	j := i
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := classAt(s, i+1); c1&clsPunct != 0 {
			j = i + 1
		}
	}
	if j == i && c0&clsPunct == 0 {
		return -1
	}
	j = run(s, j, clsPunct)
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || (slashes && s[j] == '/')) {
		j++
	}
	return j
}

// whitespace is `\s*[\r\n]+|\s+(?!\S)|\s+` from s[i], whose first
// character is a space:
//   - the first alternative ends right after the last \r or \n of the run
//     of spaces (backtracking \s* hands characters back until [\r\n]+ fits);
//   - otherwise the run, minus its last character when a non-space follows
//     and the run has more than one character;
//   - otherwise the run.
func whitespace(s string, i int) int {
	lastNewline, last, j := -1, i, i
	for j < len(s) {
		c, w := classAt(s, j)
		if c&clsSpace == 0 {
			break
		}
		if c&clsNewline != 0 {
			lastNewline = j + 1
		}
		last = j
		j += w
	}
	switch {
	case lastNewline >= 0:
		return lastNewline
	case j < len(s) && last > i:
		return last
	}
	return j
}

// contraction is the optional `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at s[i]: it
// returns i plus the length of the contraction there, or i. Only ASCII
// letters lower-case to these letters (the tests check every rune), so the
// comparison folds case by setting the 0x20 bit.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}
