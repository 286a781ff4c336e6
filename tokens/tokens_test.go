package tokens

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/internal/golden"
)

// corpus generates the equivalence corpus: one file per hazard, built from a
// fixed seed so -update is reproducible.
func corpus() map[string]string {
	rng := rand.New(rand.NewPCG(6, 6))
	pick := func(items []string, n int, sep string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(items[rng.IntN(len(items))])
		}
		return b.String()
	}
	files := map[string]string{}
	files["cjk.txt"] = pick([]string{"中文", "测试", "。", "，", "日本語の文章です", "カタカナ", "ひらがな", "한국어 텍스트", "漢字", "「引用」",
		"ｆｕｌｌ　ｗｉｄｔｈ", "１２３", "𠀀𠀁", "\U00030000"}, 400, "")
	files["emoji.txt"] = pick([]string{"😀", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷", "1️⃣", "❤️", " ", "🙂x", "a😀b", "\n", "✓", "★"}, 600, "")
	files["combining.txt"] = pick([]string{"e\u0301", "a\u0308\u0304", "\u0301", " \u0301", "\u0301\u0301x", "क्षि", "ठ\u0903", "x\u20DD",
		"A\u030A", "Ǆ", "ǅa", "ʰʰ", "ß", "ﬁ", "İstanbul", "ǅUNGLA", "\u0915\u094D", "'\u0301s"}, 500, "")
	files["rtl.txt"] = pick([]string{"שלום", "עולם", "مرحبا", "بالعالم", "١٢٣٤٥", "\u200f", "\u200e", "(", ")", " ", "abc", "٣.١٤", "ـــ"}, 500, " ")
	files["whitespace.txt"] = pick([]string{" ", "  ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2007",
		"\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u200b", "\ufeff", "x", "foo", "!", "1", "é"}, 3000, "")
	files["digits.txt"] = pick([]string{"0", "12", "123", "1234", "12345678901234567890", "3.14159", "1e-9", "0x1F", "²", "³¹", "½", "Ⅻ", "٣", "०१२",
		"１２", "-42", " 7", "1,000,000", "v1.2.3"}, 800, "")
	var contractions []string
	for _, c := range []string{"s", "t", "re", "ve", "m", "ll", "d"} {
		for mask := 0; mask < 1<<len(c); mask++ {
			b := []byte(c)
			for i := range b {
				if mask&(1<<i) != 0 {
					b[i] -= 'a' - 'A'
				}
			}
			contractions = append(contractions, "don'"+string(b), "'"+string(b), "X'"+string(b)+"x", " '"+string(b), "1'"+string(b))
		}
	}
	contractions = append(contractions, "'", "''", "'x", "' s", "'ſ", "’s", "rock'n'roll", "O'Neil", "ÉCOLE'S")
	files["contractions.txt"] = pick(contractions, 1500, " ")
	var long strings.Builder
	for _, w := range []string{strings.Repeat("a", 3000), strings.Repeat("Ab", 700), strings.Repeat("xyzzy", 500),
		strings.Repeat("0123456789abcdef", 150), strings.Repeat("=", 1000), strings.Repeat(" ", 2000), strings.Repeat("\n", 500),
		strings.Repeat("é", 800), strings.Repeat("中", 900), strings.Repeat("\t \n", 300), strings.Repeat("😀", 300)} {
		long.WriteString(w)
		long.WriteString(" word ")
	}
	files["longwords.txt"] = long.String()
	files["invalid.txt"] = pick([]string{"\xff", "\xfe\xfe", "\x80", "\xbf\xbf", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc0\xaf", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "ok", " ", "é", "😀", "\n", "a\xffb"}, 1500, "")
	files["code.txt"] = pick([]string{"func main() {\n\tfmt.Println(\"hello\")\n}\n", "if (x !== null && y >= 10) { return x; }\n",
		"def f(self, *args, **kw):\n    return {'a': [1, 2, 3]}\n", `{"key": "value", "n": 12345, "ok": true}` + "\n",
		"    // TODO(someone): don't forget\n", "SELECT * FROM users WHERE id = 42;\n", "#!/bin/sh\nset -eu\n", "<div class=\"x\">&nbsp;</div>\r\n",
		"const CamelCaseIdentifier = HTTPServerError;\n", "a_b_c__d /= 2 // x/y\n//\n///\n"}, 300, "")
	alphabet := []rune("aZ'sT 0\t\n\r\u00a0\u3000é\u0301中😀²/{.-\uFFFD")
	var rnd strings.Builder
	for i := 0; i < 20000; i++ {
		rnd.WriteRune(alphabet[rng.IntN(len(alphabet))])
	}
	files["random.txt"] = rnd.String()
	return files
}

// TestCorpus compares ids and counts with tiktoken-go on every corpus file.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "corpus")
	if golden.Update() {
		for name, text := range corpus() {
			golden.Check(t, filepath.Join(dir, name), text)
		}
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(paths) < len(corpus()) {
		t.Fatalf("corpus missing (run go test -run TestCorpus -update): %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkSame(t, path, string(data))
			// The cached path (long texts) and the plain one must agree.
			for _, name := range Names() {
				e := mustGet(t, name)
				plain := len(e.vocabEncodeUncached(string(data)))
				if got := e.Count(string(data)); got != plain {
					t.Fatalf("%s: cached count %d, uncached %d", name, got, plain)
				}
			}
		})
	}
}

// vocabEncodeUncached encodes without the piece cache.
func (e *Encoding) vocabEncodeUncached(text string) []int {
	text = validText(text)
	var out []int
	ends := make([]int, 7) // small batches, so batch boundaries are exercised
	for i := 0; i < len(text); {
		k := e.batch(text, i, ends)
		for _, j := range ends[:k] {
			out = e.vocab.Append(out, text[i:j])
			i = j
		}
	}
	return out
}

func TestCases(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "hello world", "<|endoftext|> is plain text", "don't", "  \n\n  x", "\xff\xfe", "a\x80b",
		"The quick brown fox jumps over the lazy dog.", "🤖🤖🤖", strings.Repeat("x", 200)} {
		checkSame(t, fmt.Sprintf("%q", s), s)
	}
}

func TestCachedLongText(t *testing.T) {
	t.Parallel()
	// Long, with many repeats, so cache hits and evictions
	// both happen.
	var b strings.Builder
	rng := rand.New(rand.NewPCG(1, 1))
	words := []string{" Tokenizer", " HTTPServer", " naïve", " 中文字", " xyzzyplugh", "\n\t", " 12345", " don't", " ReadFileAtomically"}
	for b.Len() < 200<<10 {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(10) == 0 {
			fmt.Fprintf(&b, " w%d", rng.IntN(100000))
		}
	}
	checkSame(t, "long text", b.String())
}

func TestDecodeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range Names() {
		e := mustGet(t, name)
		for _, s := range []string{"hello, world\n", "中文 😀 e\u0301", strings.Repeat("ab ", 100)} {
			got, err := e.Decode(e.Encode(s))
			if err != nil || got != s {
				t.Fatalf("%s: Decode(Encode(%q)) = %q, %v", name, s, got, err)
			}
		}
		if _, err := e.Decode([]int{-1}); err == nil {
			t.Fatalf("%s: Decode accepted -1", name)
		}
		if s, err := e.Decode([]int{e.vocab.Len() + 1000000}); err == nil {
			t.Fatalf("%s: Decode accepted an unknown id: %q", name, s)
		}
	}
	e := mustGet(t, O200kBase)
	if s, err := e.Decode([]int{199999}); err != nil || s != "<|endoftext|>" {
		t.Fatalf("special token: %q, %v", s, err)
	}
}

func TestGetUnknown(t *testing.T) {
	t.Parallel()
	if _, err := Get("p50k_base"); err == nil || !strings.Contains(err.Error(), "o200k_base") {
		t.Fatalf("Get(p50k_base) error = %v", err)
	}
}

// TestConcurrentUse runs counts from several goroutines (meaningful under
// -race): the encodings and the pooled caches are shared.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "code.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(string(data), 4)
	e := mustGet(t, O200kBase)
	want := e.Count(text)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				if got := e.Count(text[i:]); i == 0 && got != want {
					t.Errorf("concurrent count %d, want %d", got, want)
				}
				e.Encode(text[:len(text)-i])
			}
		}()
	}
	wg.Wait()
}

func TestEstimate(t *testing.T) {
	t.Parallel()
	e := mustGet(t, O200kBase)
	small := "short text stays exact"
	if got, want := e.Estimate(small), e.Count(small); got != want {
		t.Fatalf("Estimate(small) = %d, want %d", got, want)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "code.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for b.Len() <= estimateExact {
		b.Write(data)
	}
	text := b.String()
	exact, est := e.Count(text), e.Estimate(text)
	if diff := float64(est-exact) / float64(exact); diff > 0.05 || diff < -0.05 {
		t.Fatalf("Estimate = %d, exact %d (%.1f%% off)", est, exact, diff*100)
	}
}

func TestForModel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model, enc string
		exact      bool
	}{
		{"gpt-4o", O200kBase, true}, {"gpt-4o-mini-2024-07-18", O200kBase, true}, {"gpt-4.1-nano", O200kBase, true},
		{"gpt-5-codex", O200kBase, true}, {"o3-mini", O200kBase, true}, {"o1", O200kBase, true}, {"openai/gpt-oss-120b", O200kBase, true},
		{"gpt-4", Cl100kBase, true}, {"gpt-4-turbo", Cl100kBase, true}, {"gpt-3.5-turbo-0125", Cl100kBase, true},
		{"text-embedding-3-small", Cl100kBase, true}, {"GPT-4O", O200kBase, true},
		{"claude-sonnet-4-5", O200kBase, false}, {"anthropic/claude-3-haiku", O200kBase, false}, {"gemini-2.5-pro", O200kBase, false},
		{"llama-3.3-70b", O200kBase, false}, {"", O200kBase, false},
	} {
		m := ForModel(tc.model)
		if m.Encoding != tc.enc || m.Exact != tc.exact || (m.Exact && m.Ratio != 1) || (!m.Exact && m.Ratio <= 1) {
			t.Errorf("ForModel(%q) = %+v, want %s exact=%v", tc.model, m, tc.enc, tc.exact)
		}
	}
	if got := ForModel("claude-x").Scale(100); got != 120 {
		t.Errorf("Scale(100) for claude = %d, want 120", got)
	}
	if got := ForModel("gpt-4o").Scale(101); got != 101 {
		t.Errorf("Scale for an exact model changed the count: %d", got)
	}
}

func FuzzEncode(f *testing.F) {
	f.Add("hello world")
	f.Add("don't STOP 'til 123456 \n\n\t x")
	f.Add("\xff\xfe é\u0301 中文 😀")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1024 {
			s = s[:1024] // the reference merges long pieces in quadratic time
		}
		for _, name := range Names() {
			e := mustGet(t, name)
			want := reference(t, name).EncodeOrdinary(s)
			if got := e.Encode(s); !slices.Equal(got, want) {
				t.Fatalf("%s: Encode(%q) = %v, want %v", name, s, got, want)
			}
			if got := e.Count(s); got != len(want) {
				t.Fatalf("%s: Count(%q) = %d, want %d", name, s, got, len(want))
			}
		}
	})
}

// CountReader, read in blocks as small as a few bytes so every kind of
// piece and UTF-8 sequence gets cut, counts what Count counts on the
// whole text, for every corpus file and both encodings.
func TestCountReaderMatchesCount(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("corpus missing: %v", err)
	}
	extra := map[string]string{
		"run":       strings.Repeat("a", 300000),
		"spaces":    "x" + strings.Repeat(" ", 5000) + "y\n\n\n" + strings.Repeat("\n", 3000) + "z",
		"crlf":      strings.Repeat("line one\r\n", 500),
		"invalid":   strings.Repeat("é\xff😀\xe2\x82", 400),
		"mixedruns": strings.Repeat("ab", 40000) + strings.Repeat("=", 70000),
		// Thousands of pieces in a block (counted as they come) before
		// a giant one that crosses blocks.
		"manythengiant": strings.Repeat("ab cd\n", 100000) + strings.Repeat("x", 300000) + strings.Repeat(" y", 100000),
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		extra[filepath.Base(p)] = string(data)
	}
	for _, name := range Names() {
		e := mustGet(t, name)
		for label, text := range extra {
			want := e.Count(text)
			for _, block := range []int{1, 3, 7, 64, 4096, 1 << 20} {
				if len(text) > 20000 && block < 64 {
					continue // slow and no different
				}
				got, size, err := e.countReader(context.Background(), strings.NewReader(text), block)
				if err != nil || got != want || size != int64(len(text)) {
					t.Fatalf("%s %s block %d: %d tokens, %d bytes, %v; want %d, %d", name, label, block, got, size, err, want, len(text))
				}
			}
		}
	}
}
