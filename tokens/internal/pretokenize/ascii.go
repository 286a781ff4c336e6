package pretokenize

// ASCII fast paths, run by the batch loops (split.go). Most source text
// and English prose is ASCII, where the classes collapse to a few byte
// ranges ([A-Z] is "upper" only, [a-z] "lower" only, no marks). The fast
// paths decide a piece looking at ASCII bytes only; whenever a decision
// would depend on a non-ASCII character they give up (-1, or ok false) and
// the loop runs the general scanner from the same position, so they need
// no Unicode reasoning to be exact.

// Byte kinds for the fast paths.
const (
	kUpper   = 1 << iota // A-Z
	kLower               // a-z
	kDigit               // 0-9
	kSpace               // ASCII whitespace per unicode.IsSpace: \t \n \v \f \r space
	kNewline             // \r \n
	kPunct               // other ASCII: [^\s\p{L}\p{N}], also the prefix class
	kHigh                // a byte ≥ 0x80: not decidable here
	kLetter  = kUpper | kLower
)

var kinds = func() (t [256]uint8) {
	for b := 0; b < 256; b++ {
		switch {
		case b >= 0x80:
			t[b] = kHigh
		case 'A' <= b && b <= 'Z':
			t[b] = kUpper
		case 'a' <= b && b <= 'z':
			t[b] = kLower
		case '0' <= b && b <= '9':
			t[b] = kDigit
		case b == '\r' || b == '\n':
			t[b] = kSpace | kNewline
		case b == '\t' || b == '\v' || b == '\f' || b == ' ':
			t[b] = kSpace
		default:
			t[b] = kPunct
		}
	}
	return t
}()

// kindAt is the kind of s[i], or 0 past the end.
func kindAt(s string, i int) uint8 {
	if i < len(s) {
		return kinds[s[i]]
	}
	return 0
}

// asciiRun returns the end of the run of bytes of kind want from s[i], and
// whether the byte that ended it is ASCII (or the end of s).
func asciiRun(s string, i int, want uint8) (int, bool) {
	for i < len(s) {
		k := kinds[s[i]]
		if k&want == 0 {
			return i, k&kHigh == 0
		}
		i++
	}
	return i, true
}

// asciiNumbers is \p{N}{1,3} over ASCII digits.
func asciiNumbers(s string, i int) int {
	j := i + 1
	for j < len(s) && j < i+3 {
		k := kinds[s[j]]
		if k&kDigit == 0 {
			if k&kHigh != 0 {
				return -1 // maybe a non-ASCII number
			}
			break
		}
		j++
	}
	return j
}

// asciiPunct is ` ?[^\s\p{L}\p{N}]+` plus the trailing run (\r \n, and /
// when slashes), starting at j (after the optional space).
func asciiPunct(s string, j int, slashes bool) int {
	j, ok := asciiRun(s, j, kPunct)
	if !ok {
		return -1
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || (slashes && s[j] == '/')) {
		j++
	}
	return j
}

// asciiWhitespace applies the three whitespace alternatives to a run of
// ASCII whitespace (see whitespace).
func asciiWhitespace(s string, i int) int {
	lastNewline, j := -1, i
	for j < len(s) {
		k := kinds[s[j]]
		if k&kSpace == 0 {
			if k&kHigh != 0 {
				return -1 // maybe more (Unicode) whitespace
			}
			break
		}
		if k&kNewline != 0 {
			lastNewline = j + 1
		}
		j++
	}
	switch {
	case lastNewline >= 0:
		return lastNewline
	case j < len(s) && j-1 > i:
		return j - 1
	}
	return j
}

// wordStart handles the one character both encodings allow before a word:
// a space or punctuation (not a newline) directly followed by an ASCII
// letter. It returns where the word body starts and the kind of the byte
// there (s[i] itself when there is no prefix); ok is false when the byte
// after a possible prefix is not ASCII, which only the general path decides.
func wordStart(s string, i int) (j int, k uint8, ok bool) {
	k = kinds[s[i]]
	if k&(kPunct|kSpace) == 0 || k&kNewline != 0 {
		return i, k, true
	}
	k1 := kindAt(s, i+1)
	if k1&kHigh != 0 {
		return 0, 0, false
	}
	if k1&kLetter != 0 {
		return i + 1, k1, true
	}
	return i, k, true
}
