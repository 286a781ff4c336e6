//go:build cgo

package rure

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzable reports whether pattern and haystack are a fair comparison
// between rure and Go's regexp: both valid UTF-8 (on invalid bytes Go
// matches U+FFFD where Rust matches nothing), small, syntax both read the
// same way, and no Unicode-sensitive escapes on non-ASCII text.
func fuzzable(pattern, hay string) bool {
	if len(pattern) > 40 || len(hay) > 300 || !utf8.ValidString(pattern) || !utf8.ValidString(hay) {
		return false
	}
	if !sharedSyntax(pattern) || (unicodeSensitive(pattern) && !isASCII(hay)) {
		return false
	}
	// Rust's \s includes \v (it is Unicode White_Space); Go's does not.
	if (strings.Contains(pattern, `\s`) || strings.Contains(pattern, `\S`)) && strings.ContainsRune(hay, '\v') {
		return false
	}
	// Huge counted repetitions only make the fuzzer slow.
	if re, err := syntax.Parse(pattern, syntax.Perl); err == nil && maxRepeat(re) > 20 {
		return false
	}
	return true
}

// maxRepeat returns the largest counted repetition bound in re.
func maxRepeat(re *syntax.Regexp) int {
	n := max(re.Max, re.Min)
	for _, sub := range re.Sub {
		n = max(n, maxRepeat(sub))
	}
	return n
}

// compileBoth compiles pattern with rure (reporting any non-*Error) and
// reports whether both engines accept it.
func compileBoth(t *testing.T, pattern string) (*regexp.Regexp, *Regex, bool) {
	gore, gerr := regexp.Compile(pattern)
	re, err := Compile(pattern)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "regex parse error") || e.Kind == KindInternal {
			t.Fatalf("Compile(%q): bad error %#v", pattern, err)
		}
		if e.Kind == KindSyntax && (e.Pos < 0 || e.Pos > len(pattern)) {
			t.Fatalf("Compile(%q): position %d out of range", pattern, e.Pos)
		}
	}
	if gerr != nil || err != nil {
		if re != nil {
			re.Close()
		}
		return nil, nil, false
	}
	return gore, re, true
}

func FuzzRegexEquivalence(f *testing.F) {
	for i, p := range equivPatterns {
		f.Add(p, equivHaystacks[i%len(equivHaystacks)])
	}
	f.Fuzz(func(t *testing.T, pattern, hay string) {
		if !fuzzable(pattern, hay) {
			return
		}
		gore, re, ok := compileBoth(t, pattern)
		if !ok {
			return
		}
		defer re.Close()
		if got, want := re.IsMatch(hay), gore.MatchString(hay); got != want {
			t.Fatalf("%q on %q: IsMatch %v, Go %v", pattern, hay, got, want)
		}
		want := gore.FindStringSubmatchIndex(hay)
		caps := re.NewCaptures()
		defer caps.Close()
		if got := re.Captures(caps, hay); got != (want != nil) {
			t.Fatalf("%q on %q: Captures %v, Go %v", pattern, hay, got, want)
		} else if got {
			g := groups(caps)
			if !slices.Equal(g[:2], want[:2]) {
				t.Fatalf("%q on %q: match %v, Go %v", pattern, hay, g[:2], want[:2])
			}
			if !slices.Equal(g, want) {
				t.Fatalf("%q on %q: groups %v, Go %v", pattern, hay, g, want)
			}
		}
		all, wantAll := re.FindAll(hay), goSpans(gore, hay)
		if !isASCII(hay) && hasEmpty(all) {
			return // rure steps over empty matches by byte, Go by rune
		}
		if !slices.Equal(all, wantAll) {
			t.Fatalf("%q on %q: FindAll %v, Go %v", pattern, hay, all, wantAll)
		}
	})
}

// hasEmptySpan reports whether spans include an empty match.
func hasEmptySpan(spans []Span) bool {
	for _, s := range spans {
		if s.Start == s.End {
			return true
		}
	}
	return false
}

// lineRanges drops the spans of hits, keeping line number and byte range.
func lineRanges(hits []refHit) [][3]int {
	var out [][3]int
	for _, h := range hits {
		out = append(out, [3]int{h.Line, h.Start, h.End})
	}
	return out
}

// hasEmpty reports whether flat start,end pairs include an empty match.
func hasEmpty(pairs []int) bool {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] == pairs[i+1] {
			return true
		}
	}
	return false
}

func FuzzLineMatcher(f *testing.F) {
	for i, p := range linePatterns {
		f.Add(p, lineBuffers[i%(len(lineBuffers)-1)], byte(i%4))
	}
	for i, p := range multilinePatterns {
		f.Add(p, lineBuffers[i%(len(lineBuffers)-1)], byte(2))
	}
	f.Add(`\bfo\w`, "éfoo\nfoo ü\n", byte(0))
	// A literal filter with the ASCII variant: each candidate line picks its
	// engine, non-ASCII next to the literal or elsewhere on its line.
	f.Add(`\bfmt\.Errorf\b`, "fmt.Errorf\néfmt.Errorf\nfmt.Errorfé x\nx fmt.Errorf é\nafmt.Errorf\n", byte(0))
	f.Add(`\bfoo\b`, "foo\xff\n\xfffoo\nfoo\n", byte(0))
	f.Add(`[A-Z][a-z]+Error`, "xFooError\nError\nAbError yZzError\n", byte(0))
	f.Add(`\p{Greek}+`, "abc\nαβγ x\n\xffΩ\n", byte(0))
	f.Fuzz(func(t *testing.T, pattern, buf string, mode byte) {
		opts := LineOptions{CaseInsensitive: mode&1 != 0, Multiline: mode&2 != 0}
		if len(pattern) > 40 || len(buf) > 300 {
			return
		}
		checkASCIIVariant(t, pattern, buf, opts)
		checkLineFilters(t, pattern, buf, opts)
		if !fuzzable(pattern, buf) {
			return
		}
		prefix := "(?m)"
		if opts.CaseInsensitive {
			prefix = "(?mi)"
		}
		gore, gerr := regexp.Compile(prefix + pattern)
		m, err := NewLineMatcher(pattern, opts)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "regex parse error") || e.Kind == KindInternal {
				t.Fatalf("NewLineMatcher(%q): bad error %#v", pattern, err)
			}
			return
		}
		defer m.Close()
		if gerr != nil {
			return
		}
		want := refFindLines(gore, []byte(buf), opts.Multiline)
		var h Hits
		m.FindLines([]byte(buf), 0, &h)
		if !isASCII(buf) && hasEmptySpan(h.Spans) {
			// Empty matches step by byte here (as in regex::bytes) and by
			// character in Go: only the lines can be compared.
			if got := lineRanges(refLinesFrom(&h)); !reflect.DeepEqual(got, lineRanges(want)) {
				t.Fatalf("%q %+v on %q:\n got lines %v\nwant %v", pattern, opts, buf, got, lineRanges(want))
			}
			return
		}
		if got := refLinesFrom(&h); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q %+v on %q:\n got %v\nwant %v", pattern, opts, buf, got, want)
		}
		wl, wm := refCount([]byte(buf), want)
		if gl, gm, err := m.CountLines([]byte(buf)); err != nil || gl != wl || gm != wm {
			t.Fatalf("%q %+v on %q: CountLines %d,%d want %d,%d", pattern, opts, buf, gl, gm, wl, wm)
		}
		if gl, err := m.CountMatchingLines([]byte(buf)); err != nil || gl != wl {
			t.Fatalf("%q %+v on %q: CountMatchingLines %d want %d", pattern, opts, buf, gl, wl)
		}
		if ok, err := m.IsMatch([]byte(buf)); err != nil || ok != (len(want) > 0) {
			t.Fatalf("%q %+v on %q: IsMatch disagrees", pattern, opts, buf)
		}
	})
}

// asciiPadding is long enough to make the line matcher search it as a
// separate run of ASCII lines.
var asciiPadding = strings.Repeat("pad foo_bar 12 baz\n", 8)

// checkASCIIVariant compares a matcher with its ASCII word-boundary
// variant against one without, on buf (any bytes) framed by ASCII runs so
// that the matcher switches engines. Rust alone is the oracle here, so no
// syntax restrictions apply.
// checkLineFilters requires the line filters (required inner literal,
// non-ASCII lines) to leave every result unchanged, on any bytes.
func checkLineFilters(t *testing.T, pattern, buf string, opts LineOptions) {
	fast, err := NewLineMatcher(pattern, opts)
	if err != nil {
		return
	}
	defer fast.Close()
	plain := opts
	plain.noInnerLiteral = true
	slow, err := NewLineMatcher(pattern, plain)
	if err != nil {
		t.Fatalf("%q compiles with line filters but not without: %v", pattern, err)
	}
	defer slow.Close()
	checkSameLines(t, fmt.Sprintf("%q %+v on %q", pattern, opts, buf), slow, fast, []byte(buf))
}

func checkASCIIVariant(t *testing.T, pattern, buf string, opts LineOptions) {
	fast, err := NewLineMatcher(pattern, opts)
	if err != nil {
		return
	}
	defer fast.Close()
	if !fast.hasASCIIVariant() {
		return
	}
	general := opts
	general.noASCIIVariant = true
	slow, err := NewLineMatcher(pattern, general)
	if err != nil {
		t.Fatalf("%q compiles with the ASCII variant but not without: %v", pattern, err)
	}
	defer slow.Close()
	for _, b := range []string{buf, asciiPadding + buf + "\n" + asciiPadding + buf} {
		checkSameLines(t, fmt.Sprintf("%q %+v on %q", pattern, opts, b), slow, fast, []byte(b))
	}
}
