//go:build cgo

package rure

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// linePatterns are given to LineMatcher as is and to the Go reference
// with a (?m) prefix; all agree on ASCII buffers.
var linePatterns = []string{
	`foo`, `o`, `fo+|ba`, `^`, `$`, `^$`, `^\s*$`, `x*`, ``, `\bba\w*`, `\Bo`,
	`[^a]+`, `(?s).`, `.*`, `\s+`, `[[:upper:]]+`, `\d+$`, `^\w`, `(a|b)+`,
	`\Ab`, `r\z`, `(?i)FOO`, `[\n]`, `o\b`, `a?`, `\S+\s*`, `(?U)o+`, `b.r`,
}

// multilinePatterns may also cross lines.
var multilinePatterns = []string{
	`foo\nbar`, `o\n`, `\n`, `\n\n`, `(?s)f.*?r`, `r\s+f`, `\s+`, `[^x]+`, `$\n^`,
	`\Afoo`, `z\z`, `^`, `o$`, `\n*`,
}

var lineBuffers = []string{
	"",
	"\n",
	"\n\n",
	"foo",
	"foo\n",
	"foo\nbar\nbaz",
	"foo\nbar\nbaz\n",
	"a foo bar\n\n  \nFOO foo fooo\nbar\tbaz quz\n\nbuzz\n",
	"ab\nb\nabba\nbab\n",
	"x\n\nfoo bar\nr\nfoo\n\nbarfoo\nz",
	strings.Repeat("oo foo bar\n", 300), // forces resumes: >64 hits, >128 spans
}

// checkLines compares FindLines, CountLines and IsMatch with the
// reference for one pattern and buffer.
func checkLines(t *testing.T, pattern string, opts LineOptions, buf []byte) {
	t.Helper()
	prefix := "(?m)"
	if opts.CaseInsensitive {
		prefix = "(?mi)"
	}
	gore := regexp.MustCompile(prefix + pattern)
	m, err := NewLineMatcher(pattern, opts)
	if err != nil {
		t.Fatalf("NewLineMatcher(%q): %v", pattern, err)
	}
	defer m.Close()
	want := refFindLines(gore, buf, opts.Multiline)
	var h Hits
	m.FindLines(buf, 0, &h)
	got := refLinesFrom(&h)
	ctx := fmt.Sprintf("pattern %q %+v buffer %q", pattern, opts, truncate(buf))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", ctx, got, want)
	}
	wl, wm := refCount(buf, want)
	if gl, gm, err := m.CountLines(buf); err != nil || gl != wl || gm != wm {
		t.Errorf("%s: CountLines = %d,%d, want %d,%d", ctx, gl, gm, wl, wm)
	}
	if got, err := m.IsMatch(buf); err != nil || got != (len(want) > 0) {
		t.Errorf("%s: IsMatch = %v", ctx, got)
	}
	// A limit keeps the first hits, and appending keeps earlier hits.
	if len(want) > 1 {
		h.Reset()
		h.Lines = append(h.Lines, LineHit{Line: -1})
		h.Spans = append(h.Spans, Span{-1, -1})
		m.FindLines(buf, 1, &h)
		if len(h.Lines) != 2 || h.Lines[0].Line != -1 || !reflect.DeepEqual(refLinesFrom(&Hits{Lines: h.Lines[1:], Spans: h.Spans}), want[:1]) {
			t.Errorf("%s: maxLines=1 gave %+v", ctx, h.Lines)
		}
	}
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

func TestFindLinesMatchesReference(t *testing.T) {
	for _, p := range linePatterns {
		for _, b := range lineBuffers {
			checkLines(t, p, LineOptions{}, []byte(b))
			checkLines(t, p, LineOptions{CaseInsensitive: true}, []byte(b))
		}
	}
}

func TestFindLinesMultilineMatchesReference(t *testing.T) {
	for _, p := range append(multilinePatterns, linePatterns...) {
		if p == `[\n]` {
			continue
		}
		for _, b := range lineBuffers {
			checkLines(t, p, LineOptions{Multiline: true}, []byte(b))
		}
	}
}

func TestFindLinesNonASCII(t *testing.T) {
	buf := []byte("héllo wörld\n日本語\nnaïve café\n\nÀ")
	for _, p := range []string{`l+`, `é`, `[^ ]+`, `(?i)à`, `.$`, `^.`, `ö.`} {
		checkLines(t, p, LineOptions{}, buf)
		checkLines(t, p, LineOptions{Multiline: true}, buf)
	}
	// Empty matches fall on every byte offset, inside UTF-8 sequences too,
	// as with regex::bytes; Go's regexp steps by character instead, so only
	// the lines are compared with it.
	for _, p := range []string{`x*`, ``} {
		for _, multiline := range []bool{false, true} {
			m, err := NewLineMatcher(p, LineOptions{Multiline: multiline})
			if err != nil {
				t.Fatal(err)
			}
			var h Hits
			m.FindLines(buf, 0, &h)
			want := refFindLines(regexp.MustCompile("(?m)"+p), buf, multiline)
			if len(h.Lines) != len(want) {
				t.Fatalf("%q multiline=%v: %d hits, want %d", p, multiline, len(h.Lines), len(want))
			}
			for i, l := range h.Lines {
				var spans []Span
				for at := l.Start; at <= l.End; at++ {
					spans = append(spans, Span{at, at})
				}
				if l.Line != want[i].Line || l.Start != want[i].Start || l.End != want[i].End || !reflect.DeepEqual(h.Matches(l), spans) {
					t.Errorf("%q multiline=%v: hit %+v spans %v", p, multiline, l, h.Matches(l))
				}
			}
			m.Close()
		}
	}
}

func TestFindLinesExample(t *testing.T) {
	m, err := NewLineMatcher(`ba\w`, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var h Hits
	m.FindLines([]byte("foo\nbar baz\nqux"), 0, &h)
	want := Hits{
		Lines: []LineHit{{Line: 2, Start: 4, End: 11, SpanLo: 0, SpanHi: 2}},
		Spans: []Span{{4, 7}, {8, 11}},
	}
	if !reflect.DeepEqual(h.Lines, want.Lines) || !reflect.DeepEqual(h.Spans, want.Spans) {
		t.Errorf("got %+v", h)
	}
}

// variantBuffers mix pure-ASCII stretches of several lengths (shorter and
// longer than the run length worth switching engines for) with non-ASCII
// lines, including word characters next to ASCII words.
func variantBuffers() [][]byte {
	ascii := strings.Repeat("foo bar_baz foobar x1 _y (foo)\n", 50)
	short := "foo ok\n"
	return [][]byte{
		[]byte(ascii),
		[]byte(ascii + "élan foo écrire foo\n"),
		[]byte("éfoo fooé xfoo\n" + ascii + "ÀÀ foo\n" + short + "ü\n" + short + ascii + "fooö"),
		[]byte("日本foo語\n" + short + "foo\u00a0foo\n" + ascii[:100] + "\nÉ\n" + ascii[:70] + "\n\xff\xfefoo\n"),
	}
}

// The ASCII word-boundary variant, used per run of ASCII lines, must not
// change any result.
func TestASCIIWordBoundaryVariant(t *testing.T) {
	for _, p := range []string{`\bfoo\b`, `\Bo`, `\b\w+\b`, `\b`, `\B`, `\b{start}\w`, `\w\b{end}`, `\<f`, `o\>`, `\b{start-half}x`, `(?-u:\b)foo`, `^\w+\b`, `\b$`} {
		for _, multiline := range []bool{false, true} {
			general, err := NewLineMatcher(p, LineOptions{Multiline: multiline, noASCIIVariant: true})
			if err != nil {
				t.Fatal(err)
			}
			fast, err := NewLineMatcher(p, LineOptions{Multiline: multiline})
			if err != nil {
				t.Fatal(err)
			}
			if want := p != `(?-u:\b)foo`; fast.hasASCIIVariant() != want {
				t.Errorf("%q: hasASCIIVariant = %v, want %v", p, fast.hasASCIIVariant(), want)
			}
			if general.hasASCIIVariant() {
				t.Errorf("%q: variant built although disabled", p)
			}
			for i, buf := range variantBuffers() {
				checkSameLines(t, fmt.Sprintf("%q multiline=%v buffer %d", p, multiline, i), general, fast, buf)
			}
			general.Close()
			fast.Close()
		}
	}
}

// checkSameLines requires two matchers to agree on buf in every method.
func checkSameLines(t *testing.T, ctx string, a, b *LineMatcher, buf []byte) {
	t.Helper()
	var ha, hb Hits
	a.FindLines(buf, 0, &ha)
	b.FindLines(buf, 0, &hb)
	if !reflect.DeepEqual(refLinesFrom(&ha), refLinesFrom(&hb)) {
		t.Fatalf("%s: FindLines differ:\n%v\n%v", ctx, refLinesFrom(&ha), refLinesFrom(&hb))
	}
	al, am, _ := a.CountLines(buf)
	bl, bm, _ := b.CountLines(buf)
	ai, _ := a.IsMatch(buf)
	bi, _ := b.IsMatch(buf)
	if al != bl || am != bm || ai != bi {
		t.Fatalf("%s: CountLines %d,%d vs %d,%d or IsMatch differ", ctx, al, am, bl, bm)
	}
}

func TestLineMatcherClose(t *testing.T) {
	m, err := NewLineMatcher(`x`, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	m.Close()
	defer func() {
		if recover() == nil {
			t.Error("use after Close did not panic")
		}
	}()
	m.IsMatch([]byte("x"))
}

// The line filters — the required-literal prefilter (for patterns without a
// good prefix literal) and the non-ASCII line filter (for patterns that
// cannot match ASCII text) — must not change any result, including across
// the resume protocol (many hits) and for matches near line and buffer edges.
func TestLineFilters(t *testing.T) {
	many := strings.Repeat("xFooError yError\nnothing here\nBarError\n", 40)
	bufs := append(variantBuffers(),
		[]byte(many),
		[]byte("Error\nAError\nAbError"),
		[]byte("AbError\n\nZzErrorQqError\nAbErr\nor\n"),
		[]byte("é AbError\n\xffCdError\n"),
		[]byte("plain\nαβγ foo_baz\n"+many+"ascii\nΩ本\n\xce\n"),
	)
	for _, p := range []string{`[A-Z][a-z]+Error`, `\w+Error\b`, `[a-z]+ (foo|bar)`, `\w*_baz`, `.+Error$`, `^.*Error`, `(?i)[a-z]+error`, `\b\w+ foobar\b`, `\p{Greek}+`, `[é日]\w*`, `\w*本`} {
		general, err := NewLineMatcher(p, LineOptions{noInnerLiteral: true})
		if err != nil {
			t.Fatal(err)
		}
		fast, err := NewLineMatcher(p, LineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, buf := range bufs {
			checkSameLines(t, fmt.Sprintf("%q buffer %d", p, i), general, fast, buf)
		}
		general.Close()
		fast.Close()
	}
}

// Patterns that can match the empty string must still find the start of a
// line that opens with a stray UTF-8 continuation byte, as regex::bytes
// (and so ripgrep) does: empty matches are not held to character
// boundaries.
func TestEmptyMatchesBesideInvalidUTF8(t *testing.T) {
	buf := []byte("a\n\xa6\n\xc3\n")
	for _, p := range []string{`^`, `^.*`, `^\s*`, `\A.*`, `x*`} {
		for _, multiline := range []bool{false, true} {
			if multiline && p == `\A.*` {
				continue // \A is the start of the text there
			}
			m, err := NewLineMatcher(p, LineOptions{Multiline: multiline})
			if err != nil {
				t.Fatal(err)
			}
			var h Hits
			m.FindLines(buf, 0, &h)
			var lines []int
			for _, l := range h.Lines {
				lines = append(lines, l.Line)
			}
			if n, _, _ := m.CountLines(buf); !reflect.DeepEqual(lines, []int{1, 2, 3}) || n != 3 {
				t.Errorf("%q multiline=%v: lines %v, count %d; want every line", p, multiline, lines, n)
			}
			m.Close()
		}
	}
}

func TestLineMatcherCrossesLines(t *testing.T) {
	for _, tt := range []struct {
		pattern   string
		multiline bool
		want      bool
	}{
		{`a\nb`, true, true}, {`\s`, true, true}, {`[^x]`, true, true}, {`(?s).`, true, true},
		{`a|b`, true, false}, {`^a$`, true, false}, {`.`, true, false}, {`\s`, false, false},
	} {
		m, err := NewLineMatcher(tt.pattern, LineOptions{Multiline: tt.multiline})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.CrossesLines(); got != tt.want {
			t.Errorf("%q multiline=%v: CrossesLines = %v", tt.pattern, tt.multiline, got)
		}
		m.Close()
	}
}
