package hashline

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/gopi-agent/gopi/internal/xxh32"
)

// checkGolden compares got with testdata/name, or rewrites it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	if !golden.Check(t, "testdata/"+name, got) {
		t.Fatal("anchors must never change.")
	}
}

// TestBigramTableGolden locks the table forever.
func TestBigramTableGolden(t *testing.T) {
	var b strings.Builder
	for i, s := range bigrams {
		fmt.Fprintf(&b, "%d %s\n", i, s)
	}
	checkGolden(t, "bigrams.golden", b.String())
}

func TestBigramTableShape(t *testing.T) {
	if len(bigrams) != 647 {
		t.Fatalf("table has %d entries", len(bigrams))
	}
	seen := map[string]bool{}
	for i, s := range bigrams {
		if !regexp.MustCompile(`^[a-z]{2}$`).MatchString(s) {
			t.Fatalf("entry %d = %q", i, s)
		}
		if seen[s] {
			t.Fatalf("duplicate %q", s)
		}
		seen[s] = true
	}
	for a := 'a'; a <= 'z'; a++ {
		for b := 'a'; b <= 'z'; b++ {
			p := string([]rune{a, b})
			if IsBigram(p) != seen[p] {
				t.Fatalf("IsBigram(%q) = %v", p, IsBigram(p))
			}
		}
	}
	if !IsBigram("th") || IsBigram("Th") || IsBigram("t") || IsBigram("tha") || IsBigram("qz") {
		t.Fatal("IsBigram edge cases")
	}
}

// TestBigramTableIsOmps compares the table with omp 14.9.9's, entry for
// entry (testdata/omp-bigrams.json is omp's own bigrams.json).
func TestBigramTableIsOmps(t *testing.T) {
	data, err := os.ReadFile("testdata/omp-bigrams.json")
	if err != nil {
		t.Fatal(err)
	}
	var omp []string
	if err := json.Unmarshal(data, &omp); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(omp, bigrams[:]) {
		t.Fatalf("table differs from omp's:\n got %v\nwant %v", bigrams, omp)
	}
}

// ompVector is one row of omp's reference vectors: the hash omp 14.9.9
// shows for a line at a line number. Hex carries lines that are not valid
// UTF-8 (as bytes on disk).
type ompVector struct {
	Line int    `json:"line_number"`
	Text string `json:"line"`
	Hex  string `json:"hex"`
	Hash string `json:"hash"`
}

// readVectors reads a JSON-lines file of ompVector rows.
func readVectors(t *testing.T, path string) []ompVector {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []ompVector
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v ompVector
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		if v.Hex != "" {
			b, err := hex.DecodeString(v.Hex)
			if err != nil {
				t.Fatal(err)
			}
			v.Text = string(b)
		}
		rows = append(rows, v)
	}
	return rows
}

// TestOmpVectors checks every row of omp 14.9.9's reference vectors
// (testdata/omp-vectors.jsonl, captured from omp's read output) and of
// testdata/omp-edge-vectors.jsonl (omp's computeLineHash run by Bun on the
// decoded bytes: JavaScript white space, U+0085, letters newer than Go's
// Unicode tables, numbers outside Nd, invalid UTF-8), through LineHash and
// the row formatter.
func TestOmpVectors(t *testing.T) {
	rows := append(readVectors(t, "testdata/omp-vectors.jsonl"), readVectors(t, "testdata/omp-edge-vectors.jsonl")...)
	if len(rows) < 800 {
		t.Fatalf("only %d vectors", len(rows))
	}
	for _, v := range rows {
		if got := LineHash(v.Line, v.Text); got != v.Hash {
			t.Errorf("LineHash(%d, %q) = %s, omp shows %s", v.Line, v.Text, got, v.Hash)
		}
		if got, want := FormatLine(v.Line, v.Text), fmt.Sprintf("%d%s|", v.Line, v.Hash); !strings.HasPrefix(got, want) {
			t.Errorf("FormatLine = %q, want it to start %q", got, want)
		}
	}
}

// TestIssueExample is the line issue 36 names: omp shows it as 1is.
func TestIssueExample(t *testing.T) {
	if got := Anchor(1, "def greet(name):"); got != "1is" {
		t.Fatalf("Anchor = %s, omp shows 1is", got)
	}
}

// TestLettersDigitsAreBuns checks hasAlnum's notion of a letter or digit
// against every code point Bun's /[\p{L}\p{N}]/u matches
// (testdata/js-letters-digits.json, inclusive ranges).
func TestLettersDigitsAreBuns(t *testing.T) {
	data, err := os.ReadFile("testdata/js-letters-digits.json")
	if err != nil {
		t.Fatal(err)
	}
	var ranges [][2]rune
	if err := json.Unmarshal(data, &ranges); err != nil {
		t.Fatal(err)
	}
	js := make([]bool, unicode.MaxRune+1)
	for _, r := range ranges {
		for c := r[0]; c <= r[1]; c++ {
			js[c] = true
		}
	}
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue
		}
		if got := hasAlnum(string(c)); got != js[c] {
			t.Fatalf("hasAlnum(%U) = %v, Bun says %v", c, got, js[c])
		}
	}
}

// TestTrimIsJSTrimEnd checks trimRightSpace against the code points
// JavaScript's trimEnd removes (listed from Bun 1.4.5).
func TestTrimIsJSTrimEnd(t *testing.T) {
	js := map[rune]bool{}
	for _, c := range []rune{0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
		0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff} {
		js[c] = true
	}
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue
		}
		s := "x" + string(c)
		if trimmed := trimRightSpace(s) == "x"; trimmed != js[c] {
			t.Fatalf("trimRightSpace trims %U: %v, JavaScript: %v", c, trimmed, js[c])
		}
	}
}

// TestAppendDecoded checks the WHATWG replacement of ill-formed UTF-8.
func TestAppendDecoded(t *testing.T) {
	for in, want := range map[string]string{
		"plain é 🎉":            "plain é 🎉",
		"\xff":                 "\uFFFD",
		"a\xe2\x82b":           "a\uFFFDb",
		"\xe2\x82":             "\uFFFD",
		"\xf0\x9f\x98":         "\uFFFD",
		"\xed\xa0\x80":         "\uFFFD\uFFFD\uFFFD",
		"\xe0\x80\x80":         "\uFFFD\uFFFD\uFFFD",
		"\xf4\x90\x80\x80":     "\uFFFD\uFFFD\uFFFD\uFFFD",
		"\xc0\xaf":             "\uFFFD\uFFFD",
		"\xf0\x90}":            "\uFFFD}",
		"\x80\x80\xe2\x82\xac": "\uFFFD\uFFFD€",
	} {
		if got := string(AppendDecoded(nil, in)); got != want {
			t.Errorf("AppendDecoded(%q) = %q, want %q", in, got, want)
		}
	}
}

// anchorCorpus is a fixed set of lines whose anchors are locked.
var anchorCorpus = []string{
	"", " ", "\t", "}", "};", "{", "*/", "#", "---", "))", "  }  ",
	"package main", "func main() {", "\treturn nil", "def alpha():", "    pass",
	"x", "0", "_", "é", "日本語", "// comment", "a  ", "a\r", "a\r\n", "mixed\r\rcr",
	strings.Repeat("long line ", 40), "\u00a0}\u00a0", "١٢٣", "emoji 🎉",
}

// TestAnchorGolden locks the anchors of a fixed corpus at several line
// numbers (punctuation-only lines depend on the line number).
func TestAnchorGolden(t *testing.T) {
	var b strings.Builder
	for _, line := range []int{1, 2, 41, 1000, 123456} {
		for _, s := range anchorCorpus {
			fmt.Fprintf(&b, "%s %q\n", Anchor(line, s), s)
		}
	}
	checkGolden(t, "anchors.golden", b.String())
}

// referenceIndex is a slow, obviously correct statement of the hash, in
// the words of its definition.
func referenceIndex(line int, text string) int {
	s := string(AppendDecoded(nil, strings.ReplaceAll(text, "\r", "")))
	s = strings.TrimRightFunc(s, func(r rune) bool { return r < utf8.RuneSelf && unicode.IsSpace(r) || isJSSpace(r) })
	alnum := strings.IndexFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.L, unicode.N) || unicode.Is(jsNewerLettersDigits, r)
	}) >= 0
	seed := uint32(line)
	if alnum {
		seed = 0
	}
	return int(xxh32.Sum(s, seed) % 647)
}

func TestHashMatchesReference(t *testing.T) {
	inputs := append([]string{}, anchorCorpus...)
	inputs = append(inputs, "a \r \t", "\r}", "x\u2003", "\u2003", "\xff", "\xff}", "a\x00", "}\u0085", "}\ufeff", "²", "x\xe2\x82 ")
	for _, s := range inputs {
		for line := 1; line < 50; line++ {
			if got, want := hashIndex(line, s), referenceIndex(line, s); got != want {
				t.Fatalf("hashIndex(%d, %q) = %d, reference %d", line, s, got, want)
			}
		}
	}
}

func TestHashProperties(t *testing.T) {
	if Anchor(3, "a  ") != Anchor(3, "a") || Anchor(3, "a\r") != Anchor(3, "a") || Anchor(3, "a\t\r\n") != Anchor(3, "a") {
		t.Fatal("trailing whitespace or CR changes the anchor")
	}
	if LineHash(3, "foo") != LineHash(9, "foo") {
		t.Fatal("lines with letters must not depend on the line number")
	}
	differ := 0
	for line := 1; line <= 20; line++ {
		if LineHash(line, "}") != LineHash(line+1, "}") {
			differ++
		}
	}
	if differ < 15 {
		t.Fatalf("punctuation lines should mostly differ between line numbers; %d of 20 did", differ)
	}
	re := regexp.MustCompile(`^\d+[a-z]{2}$`)
	for i, s := range anchorCorpus {
		if a := Anchor(i+1, s); !re.MatchString(a) {
			t.Fatalf("anchor %q", a)
		}
	}
}

// TestHashSpread checks that the hash uses the whole table.
func TestHashSpread(t *testing.T) {
	counts := make([]int, BigramCount)
	const n = 647 * 200
	for i := range n {
		counts[hashIndex(1, fmt.Sprintf("line %d", i))]++
	}
	for i, c := range counts {
		if c < 100 || c > 300 { // expected 200; a 7-sigma band
			t.Fatalf("bucket %d (%s) has %d of %d", i, bigrams[i], c, n)
		}
	}
}

func TestFormat(t *testing.T) {
	content := "a\r\nb\n}\n\n}"
	got := FormatFile(content)
	want := strings.Join([]string{
		FormatLine(1, "a"), FormatLine(2, "b"), FormatLine(3, "}"), FormatLine(4, ""), FormatLine(5, "}"),
	}, "\n")
	if got != want {
		t.Fatalf("FormatFile:\n%s\nwant\n%s", got, want)
	}
	if FormatFile(content+"\n") != want {
		t.Fatal("a final newline must not add a row")
	}
	if FormatLines(SplitLines(content), 1) != want {
		t.Fatal("FormatLines differs from FormatFile")
	}
	if FormatFile("") != "" || len(SplitLines("")) != 0 || len(SplitLines("\n")) != 1 {
		t.Fatal("empty content")
	}
	if got := FormatLine(41, "x"); got != Anchor(41, "x")+"|x" {
		t.Fatalf("FormatLine = %q", got)
	}
	if got := string(AppendRows([]byte("> "), "q\nr", 7)); got != "> "+FormatLine(7, "q")+"\n"+FormatLine(8, "r") {
		t.Fatalf("AppendRows = %q", got)
	}
}

// TestAppendRowsNumbering crosses decimal carries against per-line formatting.
func TestAppendRowsNumbering(t *testing.T) {
	content := strings.Repeat("x\n}\n", 600)
	for _, first := range []int{1, 8, 95, 998, 9990, 99999} {
		if got, want := string(AppendRows(nil, content, first)), FormatLines(SplitLines(content), first); got != want {
			t.Fatalf("numbering from %d differs", first)
		}
	}
}
