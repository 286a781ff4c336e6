package hashline

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseAnchor checks that the anchor and range parsers never panic,
// that every accepted token round-trips through Ref.String, and that
// every error is one of the documented sentinels.
func FuzzParseAnchor(f *testing.F) {
	for _, s := range []string{"41th", "1aa", "119sr", "4fb..6qx", "5ab..5cd", "6qx..4fb", "", "..", "0ab", "41th|x", " 7zz ", "BOF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := ParseAnchor(s); err == nil {
			if r.String() != strings.TrimSpace(s) || r.Line < 1 || !(len(r.Hash) == 2) {
				t.Fatalf("ParseAnchor(%q) = %+v", s, r)
			}
			if r2, err := ParseAnchor(r.String()); err != nil || r2 != r {
				t.Fatalf("round trip of %q: %v %v", s, r2, err)
			}
		} else if !errors.Is(err, ErrBadAnchor) {
			t.Fatalf("unexpected error %v", err)
		}
		from, to, err := ParseRange(s)
		switch {
		case err == nil:
			if to.Line < from.Line || (to.Line == from.Line && to.Hash != from.Hash) {
				t.Fatalf("ParseRange(%q) accepted %v..%v", s, from, to)
			}
		case errors.Is(err, ErrNotRange):
			if strings.Contains(s, "..") {
				t.Fatalf("ErrNotRange for %q", s)
			}
		case errors.Is(err, ErrRangeShape), errors.Is(err, ErrRangeReversed), errors.Is(err, ErrRangeConflict):
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}

// FuzzLineHash checks the fast hash against the reference statement and
// the row formatter against per-line formatting.
func FuzzLineHash(f *testing.F) {
	for _, s := range anchorCorpus {
		f.Add(s, 1)
	}
	f.Add("a\r\nb\n}\n", 40)
	f.Fuzz(func(t *testing.T, s string, line int) {
		if line < 1 || line > 1<<30 {
			line = 1
		}
		if !strings.Contains(s, "\n") {
			if hashIndex(line, s) != referenceIndex(line, s) {
				t.Fatalf("hash of %q at %d differs from reference", s, line)
			}
		}
		got := string(AppendRows(nil, s, line))
		want := FormatLines(SplitLines(s), line)
		if got != want {
			t.Fatalf("AppendRows(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzAppendDecoded checks the WHATWG decoding of arbitrary bytes: the
// result is valid UTF-8, valid input comes back unchanged, and each
// U+FFFD added stands for at least one and at most three ill-formed bytes.
func FuzzAppendDecoded(f *testing.F) {
	for _, s := range []string{"", "abc", "é🎉", "\xff", "a\xe2\x82b", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := string(AppendDecoded([]byte("x"), s))[1:]
		if !utf8.ValidString(got) {
			t.Fatalf("AppendDecoded(%q) = %q, not valid UTF-8", s, got)
		}
		if utf8.ValidString(s) {
			if got != s {
				t.Fatalf("AppendDecoded changed valid %q into %q", s, got)
			}
			return
		}
		added := strings.Count(got, "\uFFFD") - strings.Count(s, "\uFFFD")
		bad := 0
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				bad++
			}
			i += size
		}
		if added < 1 || added > bad || 3*added < bad {
			t.Fatalf("AppendDecoded(%q) = %q: %d replacements for %d ill-formed bytes", s, got, added, bad)
		}
	})
}
