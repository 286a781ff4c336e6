//go:build cgo

package rure

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// equivPatterns are accepted by both Go's regexp and rure with the same
// meaning on ASCII haystacks.
var equivPatterns = []string{
	// literals and alternation
	`a`, `abc`, `foo|bar`, `a|ab|abc`, `ab|a`, `(?:x|y|z)+`,
	// classes
	`[a-c]`, `[^a-c]+`, `[[:alpha:]]+`, `[[:digit:][:space:]]`, `[^[:alnum:]]`,
	`\d+`, `\w+`, `\s`, `\S+`, `\W`, `.`, `(?s).+`, `[.]`, `[\]a]`, `[a\-z]`,
	// anchors and boundaries
	`^a`, `a$`, `(?m)^\w+$`, `(?m)^`, `(?m)$`, `\Aab`, `b\z`, `\bfoo\b`, `\Bo\B`, `\b`,
	// repetition
	`a*`, `a+?`, `a{2}`, `a{2,}`, `a{1,3}?`, `(ab)*`, `(?U)a+`, `x*y*`, `(a|b)*c`,
	// captures
	`(a)(b)?`, `(?P<first>\w+)\s(?P<last>\w+)`, `(?<word>o+)`, `((a)|(b))+`,
	`(a*)*`, `(a*)+b`, `(\d+)-(\d+)?`, `(?:(x)|y)z`,
	// case-insensitivity
	`(?i)foo`, `(?i)[a-c]+`, `(?i:B)ar`, `F(?i)OO`,
	// empty matches
	``, `()`, `(?:)`, `a?`, `|a`, `a|`, `\b|x`,
}

var equivHaystacks = []string{
	"",
	"a",
	"foo bar baz",
	"aaa bbb abc abcabc",
	"Foo FOO fOo\nbar\nBAR foo",
	"x-1 2-3 4- 12-34",
	"ab\nab\n\n  cab  \n",
	"xyzzy yyy zzz xy",
	"John Smith\nJane   Doe",
	"]a-z[.] xyz",
}

// goSpans is Go's FindAll result in the flat start,end form.
func goSpans(re *regexp.Regexp, hay string) []int {
	var out []int
	for _, m := range re.FindAllStringIndex(hay, -1) {
		out = append(out, m...)
	}
	return out
}

// checkRegexEquivalence compares every rure search method with Go's regexp
// on one pattern and haystack.
func checkRegexEquivalence(t *testing.T, pattern, hay string) {
	t.Helper()
	gore := regexp.MustCompile(pattern)
	re, err := Compile(pattern)
	if err != nil {
		t.Fatalf("Compile(%q): %v", pattern, err)
	}
	defer re.Close()
	ctx := fmt.Sprintf("pattern %q haystack %q", pattern, hay)

	if got, want := re.IsMatch(hay), gore.MatchString(hay); got != want {
		t.Errorf("%s: IsMatch = %v, want %v", ctx, got, want)
	}
	if got := re.IsMatchBytes([]byte(hay)); got != gore.MatchString(hay) {
		t.Errorf("%s: IsMatchBytes = %v", ctx, got)
	}
	want := gore.FindStringIndex(hay)
	s, e, ok := re.Find(hay)
	if ok != (want != nil) || (ok && (s != want[0] || e != want[1])) {
		t.Errorf("%s: Find = %d,%d,%v, want %v", ctx, s, e, ok, want)
	}
	if s2, e2, ok2 := re.FindBytes([]byte(hay)); s2 != s || e2 != e || ok2 != ok {
		t.Errorf("%s: FindBytes = %d,%d,%v, Find = %d,%d,%v", ctx, s2, e2, ok2, s, e, ok)
	}
	all := goSpans(gore, hay)
	if got := re.FindAll(hay); !slices.Equal(got, all) {
		t.Errorf("%s: FindAll = %v, want %v", ctx, got, all)
	}
	if got := re.FindAllBytes([]byte(hay)); !slices.Equal(got, all) {
		t.Errorf("%s: FindAllBytes = %v, want %v", ctx, got, all)
	}

	caps := re.NewCaptures()
	defer caps.Close()
	if caps.Len() != gore.NumSubexp()+1 {
		t.Errorf("%s: caps.Len = %d, want %d", ctx, caps.Len(), gore.NumSubexp()+1)
	}
	wantCaps := gore.FindStringSubmatchIndex(hay)
	if got := re.Captures(caps, hay); got != (wantCaps != nil) {
		t.Errorf("%s: Captures = %v", ctx, got)
	} else if got {
		if g := groups(caps); !slices.Equal(g, wantCaps) {
			t.Errorf("%s: groups = %v, want %v", ctx, g, wantCaps)
		}
	}
	if got := re.CapturesBytes(caps, []byte(hay)); got != (wantCaps != nil) {
		t.Errorf("%s: CapturesBytes = %v", ctx, got)
	}

	// Iterating with captures gives every match with its groups.
	wantAll := gore.FindAllStringSubmatchIndex(hay, -1)
	it := re.Iter(hay)
	defer it.Close()
	var gotAll [][]int
	for it.NextCaptures(caps) {
		gotAll = append(gotAll, groups(caps))
	}
	if !slices.EqualFunc(gotAll, wantAll, slices.Equal) {
		t.Errorf("%s: NextCaptures = %v, want %v", ctx, gotAll, wantAll)
	}
	// And Next agrees with FindAll.
	it2 := re.IterBytes([]byte(hay))
	defer it2.Close()
	var m Match
	var flat []int
	for it2.Next(&m) {
		flat = append(flat, m.Start, m.End)
	}
	if !slices.Equal(flat, all) {
		t.Errorf("%s: Iter.Next = %v, want %v", ctx, flat, all)
	}
}

// groups returns caps in Go's submatch-index form (-1 for unset groups).
func groups(caps *Captures) []int {
	var out []int
	for i := range caps.Len() {
		s, e, ok := caps.Group(i)
		if !ok {
			s, e = -1, -1
		}
		out = append(out, s, e)
	}
	return out
}

func TestRegexEquivalence(t *testing.T) {
	for _, p := range equivPatterns {
		for _, h := range equivHaystacks {
			checkRegexEquivalence(t, p, h)
		}
	}
}

// On non-ASCII text the patterns without Unicode-sensitive escapes still
// agree, as long as no match is empty (rure steps over empty matches byte
// by byte, Go rune by rune).
func TestRegexEquivalenceNonASCII(t *testing.T) {
	hays := []string{"héllo wörld", "日本語 テキスト", "ÀÉÎ àéî", "naïve café"}
	pats := []string{`l+`, `[^ ]+`, `(?i)é`, `(?i)àé`, `.`, `ö(.)`, `[à-ï]+`, `(\S+) (\S+)`}
	for _, p := range pats {
		for _, h := range hays {
			if p == `(\S+) (\S+)` {
				p = `([^ ]+) ([^ ]+)`
			}
			checkRegexEquivalence(t, p, h)
		}
	}
}

func TestCaptureNames(t *testing.T) {
	re := MustCompile(`(?P<year>\d{4})-(\d{2})-(?<day>\d{2})`)
	defer re.Close()
	if got, want := re.CaptureNames(), []string{"", "year", "", "day"}; !slices.Equal(got, want) {
		t.Errorf("CaptureNames = %q, want %q", got, want)
	}
	for name, want := range map[string]int{"year": 1, "day": 3, "month": -1, "": -1, "ye\x00ar": -1} {
		if got := re.CaptureIndex(name); got != want {
			t.Errorf("CaptureIndex(%q) = %d, want %d", name, got, want)
		}
	}
	caps := re.NewCaptures()
	defer caps.Close()
	if !re.Captures(caps, "on 2024-05-17.") {
		t.Fatal("no match")
	}
	if s, e, ok := caps.Group(re.CaptureIndex("day")); !ok || s != 11 || e != 13 {
		t.Errorf("day = %d,%d,%v", s, e, ok)
	}
	if _, _, ok := caps.Group(4); ok {
		t.Error("Group(4) ok on a 4-group regex")
	}
	if _, _, ok := caps.Group(-1); ok {
		t.Error("Group(-1) ok")
	}
}

func TestCompileOptions(t *testing.T) {
	re, err := CompileOptions(`^foo.bar$`, FlagCaseI|FlagMulti|FlagDotNL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if !re.IsMatch("x\nFOO\nBAR\ny") {
		t.Error("flags not applied")
	}
	spaced := `a b  # comment`
	re2, err := CompileOptions(spaced, FlagDefault|FlagSpace|FlagSwapGreed, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer re2.Close()
	if s, e, ok := re2.Find("xab"); !ok || s != 1 || e != 3 {
		t.Errorf("FlagSpace: %d,%d,%v", s, e, ok)
	}
	opts := NewOptions()
	opts.SizeLimit(1 << 20)
	opts.DFASizeLimit(1 << 16)
	re3, err := CompileOptions(`\w+`, FlagDefault, opts)
	opts.Close()
	opts.Close() // idempotent
	if err != nil {
		t.Fatal(err)
	}
	defer re3.Close()
	if !re3.IsMatch("ok") {
		t.Error("no match with options")
	}
}

func TestEmptyHaystackAndClose(t *testing.T) {
	re := MustCompile(`x*`)
	for _, fn := range []func() bool{
		func() bool { return re.IsMatch("") },
		func() bool { return re.IsMatchBytes(nil) },
		func() bool { _, _, ok := re.FindBytes([]byte{}); return ok },
	} {
		if !fn() {
			t.Error("x* should match the empty haystack")
		}
	}
	if got := re.FindAllBytes(nil); !slices.Equal(got, []int{0, 0}) {
		t.Errorf("FindAllBytes(nil) = %v", got)
	}
	re.Close()
	re.Close() // idempotent
	defer func() {
		if recover() == nil {
			t.Error("use after Close did not panic")
		}
	}()
	re.IsMatch("x")
}

func TestCapturesFromOtherRegexPanics(t *testing.T) {
	a, b := MustCompile(`(a)`), MustCompile(`(b)(c)`)
	defer a.Close()
	defer b.Close()
	caps := a.NewCaptures()
	defer caps.Close()
	defer func() {
		if recover() == nil {
			t.Error("mismatched Captures did not panic")
		}
	}()
	b.Captures(caps, "bc")
}
