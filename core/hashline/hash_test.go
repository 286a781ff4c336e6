package hashline

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/zeebo/xxh3"
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
		if i > 0 && bigrams[i-1] >= s {
			t.Fatalf("not sorted at %d", i)
		}
		seen[s] = true
	}
	var left []string
	for a := 'a'; a <= 'z'; a++ {
		for b := 'a'; b <= 'z'; b++ {
			p := string([]rune{a, b})
			if !seen[p] {
				left = append(left, p)
			}
			if IsBigram(p) != seen[p] {
				t.Fatalf("IsBigram(%q) = %v", p, IsBigram(p))
			}
		}
	}
	want := "aa bb cc dd ee ff gg hh ii jj kk ll mm nd nn oo pp qq rd rr ss st tt uu vv ww xx yy zz"
	if got := strings.Join(left, " "); got != want {
		t.Fatalf("omitted pairs:\n got %s\nwant %s", got, want)
	}
	if !IsBigram("th") || IsBigram("Th") || IsBigram("t") || IsBigram("tha") {
		t.Fatal("IsBigram edge cases")
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

// referenceIndex is a slow, obviously correct statement of the hash.
func referenceIndex(line int, text string) int {
	s := strings.TrimRightFunc(strings.ReplaceAll(text, "\r", ""), unicode.IsSpace)
	alnum := strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
	if alnum {
		return int(xxh3.HashString(s) % 647)
	}
	return int(xxh3.HashStringSeed(s, uint64(line)) % 647)
}

func TestHashMatchesReference(t *testing.T) {
	inputs := append([]string{}, anchorCorpus...)
	inputs = append(inputs, "a \r \t", "\r}", "x\u2003", "\u2003", "\xff", "\xff}", "a\x00")
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
