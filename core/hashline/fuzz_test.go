package hashline

import (
	"errors"
	"strings"
	"testing"
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
