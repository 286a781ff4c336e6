package pretokenize

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// The split patterns of tiktoken-go, which runs them with regexp2.
var (
	o200kPattern = strings.Join([]string{
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
		`\p{N}{1,3}`,
		` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
		`\s*[\r\n]+`,
		`\s+(?!\S)`,
		`\s+`,
	}, "|")
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	o200kRegex  = regexp2.MustCompile(o200kPattern, regexp2.None)
	cl100kRegex = regexp2.MustCompile(cl100kPattern, regexp2.None)
)

// referencePieces splits s with regexp2, the slow reference. regexp2 works on
// runes, so its indices are converted back to byte offsets.
func referencePieces(re *regexp2.Regexp, s string) []string {
	runes := []rune(s)
	var out []string
	m, err := re.FindRunesMatch(runes)
	for m != nil && err == nil {
		out = append(out, string(runes[m.Index:m.Index+m.Length]))
		m, err = re.FindNextMatch(m)
	}
	return out
}

// alphabet holds characters of every class the patterns distinguish, so
// random strings over it reach every branch.
var alphabet = []rune{
	'a', 'z', 'A', 'Z', 's', 'S', 't', 'T', 'r', 'R', 'e', 'E', 'v', 'V', 'm', 'M', 'l', 'L', 'd', 'D',
	'\'', '0', '9', ' ', ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0xA0, 0x1680, 0x2000, 0x2028, 0x3000,
	'/', '.', '{', '-', '_', '"', 'ǅ', 'ʰ', '中', 'א', 'ש', '\u0301', '\u0903', '\u20DD', '²', 'Ⅻ', '٣',
	'😀', '\uFFFD', '\u200B', '\u200D', 'ſ', 'K', 'İ', 0x1D400, 0x10400, 0xE0001, 0x20000, 0x30000, 'é', 'É',
}

// fromAlphabet maps each byte of data to a character of the alphabet.
func fromAlphabet(data []byte) string {
	var b strings.Builder
	for _, c := range data {
		b.WriteRune(alphabet[int(c)%len(alphabet)])
	}
	return b.String()
}

// batchPieces splits s with a Batch, in deliberately small batches.
func batchPieces(batch Batch, s string) []string {
	var out []string
	ends := make([]int, 3)
	for i := 0; i < len(s); {
		n := batch(s, i, ends)
		for _, j := range ends[:n] {
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

func checkSplit(t *testing.T, s string) {
	t.Helper()
	for _, tc := range []struct {
		name  string
		split Splitter
		batch Batch
	}{{"o200k", O200k, O200kBatch}, {"cl100k", Cl100k, Cl100kBatch}} {
		if got, want := batchPieces(tc.batch, s), Pieces(tc.split, s); !slices.Equal(got, want) {
			t.Fatalf("%s batch split of %q:\n got %q\nwant %q", tc.name, s, got, want)
		}
	}
	for _, tc := range []struct {
		name  string
		split Splitter
		re    *regexp2.Regexp
	}{{"o200k", O200k, o200kRegex}, {"cl100k", Cl100k, cl100kRegex}} {
		got, want := Pieces(tc.split, s), referencePieces(tc.re, s)
		if !slices.Equal(got, want) {
			t.Fatalf("%s split of %q:\n got %q\nwant %q", tc.name, s, got, want)
		}
	}
}

func TestSplitCases(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "a", "hello world", "Hello World", "HELLO world", "HelloWorld", "don't DON'T can'T we'Re I'M they'LL he'd",
		"'s 'S 'x", "x's", "123456789", "a1b22c333d4444", "  a", "a  ", "a  b", "a \n\n b", "\r\n\r\n", " \t\n ",
		"foo/bar//baz\n/", " {}\n", "x = y + z;\n\t}", "中文字符测试", "שלום עולם", "e\u0301t\u0301é", "\u0301\u0301 a",
		" \u0301", "\u0301", "A\u0301", "ǅungla", "ʰʰ", "😀😀 hi", "²³¹ Ⅻ", "\u00a0\u00a0x", "ſ's", "'ſ",
		"K'S", "\u3000\u3000", "a\u200db", "😀\n", "x\u0085y", "𝐀𝐀a", "\U00030000x",
	} {
		checkSplit(t, s)
	}
}

// TestSplitExhaustiveShort checks every string of up to three characters of
// the alphabet (two with -short).
func TestSplitExhaustiveShort(t *testing.T) {
	n := len(alphabet)
	first3 := 0 // c == n means no third character
	if testing.Short() {
		first3 = n
	}
	buf := make([]byte, 3)
	for a := 0; a < n; a++ {
		for b := 0; b <= n; b++ {
			for c := first3; c <= n; c++ {
				buf = append(buf[:0], byte(a))
				if b < n {
					buf = append(buf, byte(b))
				}
				if c < n {
					buf = append(buf, byte(c))
				}
				checkSplit(t, fromAlphabet(buf))
			}
		}
	}
}

// TestClassesMatchUnicode checks the precomputed table against the
// definition for every rune it covers.
func TestClassesMatchUnicode(t *testing.T) {
	t.Parallel()
	for r := rune(0); r < tableLimit+0x100; r++ {
		var got uint8
		if r < utf8.RuneSelf {
			got = asciiClasses[r]
		} else {
			got = runeClass(r)
		}
		if want := computeClass(r); got != want {
			t.Fatalf("class of %U = %08b, want %08b", r, got, want)
		}
	}
}

// TestContractionLettersAreASCII backs the ASCII-only case folding of
// contraction: no other rune lower-cases to one of its letters.
func TestContractionLettersAreASCII(t *testing.T) {
	t.Parallel()
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if l := unicode.ToLower(r); strings.ContainsRune("strevmld", l) {
			t.Fatalf("%U lower-cases to %q", r, l)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("\x00hello world"))
	f.Add([]byte("\x01don't\n\n  x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		var s string
		if data[0]%2 == 0 {
			s = strings.ToValidUTF8(string(data[1:]), "\uFFFD")
		} else {
			s = fromAlphabet(data[1:])
		}
		checkSplit(t, s)
	})
}
