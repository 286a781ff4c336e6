package tool

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// headReference is a slow statement of TruncateHead's contract.
func headReference(s string, l Limits) (string, int) {
	lines := strings.Split(s, "\n")
	kept := 0
	for kept < len(lines) && kept < l.MaxLines && len(strings.Join(lines[:kept+1], "\n")) <= l.MaxBytes {
		kept++
	}
	return strings.Join(lines[:kept], "\n"), kept
}

func tailReference(s string, l Limits) (string, int) {
	lines := strings.Split(s, "\n")
	kept := 0
	for kept < len(lines) && kept < l.MaxLines && len(strings.Join(lines[len(lines)-kept-1:], "\n")) <= l.MaxBytes {
		kept++
	}
	return strings.Join(lines[len(lines)-kept:], "\n"), kept
}

func TestTruncateAgainstReference(t *testing.T) {
	inputs := []string{"", "a", "a\n", "\n\n", "abc\ndef\nghi", "long line here\nx\ny\n", "é\nàà\n日本語\nz"}
	for _, s := range inputs {
		for ml := 1; ml <= 4; ml++ {
			for mb := 1; mb <= 16; mb++ {
				l := Limits{MaxLines: ml, MaxBytes: mb}
				h := TruncateHead(s, l)
				want, n := headReference(s, l)
				if h.Content != want || h.OutputLines != n || h.Truncated != (n < strings.Count(s, "\n")+1) {
					t.Fatalf("head(%q,%v) = %+v, want %q/%d", s, l, h, want, n)
				}
				if h.FirstLineExceedsLimit != (n == 0) {
					t.Fatalf("head(%q,%v) first-line flag %+v", s, l, h)
				}
				tl := TruncateTail(s, l)
				want, n = tailReference(s, l)
				if n == 0 {
					if !tl.LastLinePartial || tl.OutputLines != 1 || len(tl.Content) > mb || !utf8.ValidString(tl.Content) && utf8.ValidString(s) {
						t.Fatalf("tail(%q,%v) partial %+v", s, l, tl)
					}
					last := s[strings.LastIndexByte(s, '\n')+1:]
					if !strings.HasSuffix(last, tl.Content) {
						t.Fatalf("tail(%q,%v) partial content %q", s, l, tl.Content)
					}
				} else if tl.Content != want || tl.OutputLines != n {
					t.Fatalf("tail(%q,%v) = %+v, want %q/%d", s, l, tl, want, n)
				}
			}
		}
	}
}

func TestTruncateMetadata(t *testing.T) {
	s := strings.Repeat("x\n", 4000)
	h := TruncateHead(s, Limits{})
	if !h.Truncated || h.TruncatedBy != "lines" || h.OutputLines != 3000 || h.TotalLines != 4001 || h.MaxBytes != DefaultMaxBytes {
		t.Fatalf("%+v", h)
	}
	big := strings.Repeat(strings.Repeat("y", 99)+"\n", 1000)
	h = TruncateHead(big, Limits{MaxLines: NoLineLimit})
	if h.TruncatedBy != "bytes" || h.OutputBytes > DefaultMaxBytes || h.OutputLines != 512 {
		t.Fatalf("%+v", Truncation{TruncatedBy: h.TruncatedBy, OutputBytes: h.OutputBytes, OutputLines: h.OutputLines})
	}
	if got := TruncateHead("short", Limits{}); got.Truncated || got.Content != "short" {
		t.Fatalf("%+v", got)
	}
}

func TestTruncateLine(t *testing.T) {
	if s, cut := TruncateLine("abc", 3); s != "abc" || cut {
		t.Fatal(s)
	}
	if s, cut := TruncateLine("abcd", 3); s != "abc…" || !cut {
		t.Fatal(s)
	}
	if s, cut := TruncateLine("ééé", 2); s != "éé…" || !cut {
		t.Fatal(s)
	}
	if s, cut := TruncateLine("éé", 2); s != "éé" || cut {
		t.Fatal(s)
	}
	if s, _ := TruncateLine(strings.Repeat("z", 2000), 0); utf8.RuneCountInString(s) != 1025 {
		t.Fatal(len(s))
	}
	if FormatSize(512) != "512B" || FormatSize(1536) != "1.5KB" || FormatSize(3*1024*1024) != "3.0MB" {
		t.Fatal(FormatSize(1536))
	}
}
