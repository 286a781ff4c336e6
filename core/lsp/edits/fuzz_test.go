package edits

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// FuzzApplyText applies random edits to random text and compares the
// result with a slow reference that finds each position by splitting the
// text into lines and applies the edits one at a time from the end.
// Edits a server may not send (overlapping, out of range, reversed) must
// be refused by both.
func FuzzApplyText(f *testing.F) {
	f.Add("package a\r\n\r\nfunc Old() {}\r\n", []byte{2, 5, 0, 8, 1, 3, 0, 0, 0, 4})
	f.Add("\ufeffs := \"😀é\" + Old\n", []byte{0, 13, 0, 16, 2, 0, 0, 0, 1, 0})
	f.Add("a\nb\nc", []byte{0, 1, 1, 1, 0, 0, 1, 0, 0, 3, 1, 0, 0, 1, 1})
	f.Add("", []byte{0, 0, 0, 0, 3})
	f.Add("x\r\ny\rz\n\xff\n", []byte{1, 2, 1, 1, 3, 2, 0, 0, 2, 2})
	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		edits := fuzzEdits(text, ops)
		got, err := ApplyText([]byte(text), edits)
		want, refErr := referenceApply(text, edits)
		if (err != nil) != (refErr != nil) {
			t.Fatalf("ApplyText(%q, %v): error %v, reference error %v", text, edits, err, refErr)
		}
		if err == nil && string(got) != want {
			t.Fatalf("ApplyText(%q, %v) = %q, reference %q", text, edits, got, want)
		}
	})
}

// fuzzTexts are the replacements the fuzz edits insert.
var fuzzTexts = []string{"", "New", "a\nb", "\n", "😀", "x\r\ny\n", "é\n\n"}

// fuzzEdits makes up to 8 edits from ops, five bytes each: start line and
// character, line delta and end character, replacement. Lines may be one
// past the end and characters past a line's end, to reach the refusals.
func fuzzEdits(text string, ops []byte) []protocol.TextEdit {
	lines := strings.Count(text, "\n") + 2
	var edits []protocol.TextEdit
	for i := 0; i+5 <= len(ops) && len(edits) < 8; i += 5 {
		l1 := int(ops[i]) % lines
		l2 := l1 + int(ops[i+2])%3 - int(ops[i+2]/128)
		edits = append(edits, te(l1, int(ops[i+1])%24, l2, int(ops[i+3])%24, fuzzTexts[int(ops[i+4])%len(fuzzTexts)]))
	}
	return edits
}

// refSpan is an edit as byte offsets, for the reference.
type refSpan struct {
	start, end, index int
	text              string
}

// referenceApply is ApplyText the slow way.
func referenceApply(content string, edits []protocol.TextEdit) (string, error) {
	text, hasBOM := strings.CutPrefix(content, "\ufeff")
	crlf := false
	if i := strings.Index(text, "\n"); i > 0 && text[i-1] == '\r' {
		crlf = true
	}
	var spans []refSpan
	for i, e := range edits {
		s, err := refOffset(text, e.Range.Start)
		if err != nil {
			return "", err
		}
		end, err := refOffset(text, e.Range.End)
		if err != nil {
			return "", err
		}
		if end < s {
			return "", fmt.Errorf("reversed")
		}
		nt := e.NewText
		if crlf {
			nt = strings.ReplaceAll(strings.ReplaceAll(nt, "\r\n", "\n"), "\n", "\r\n")
		}
		spans = append(spans, refSpan{s, end, i, nt})
	}
	for i := range spans {
		for j := i + 1; j < len(spans); j++ {
			if refOverlap(spans[i], spans[j]) {
				return "", fmt.Errorf("overlap")
			}
		}
	}
	// From the end: a later place first; at one place the replacement
	// before the inserts, and the inserts last-sent first, so that the
	// text reads in the server's order.
	slices.SortFunc(spans, func(a, b refSpan) int {
		return cmp.Or(cmp.Compare(b.start, a.start), cmp.Compare(b.end, a.end), cmp.Compare(b.index, a.index))
	})
	for _, s := range spans {
		text = text[:s.start] + s.text + text[s.end:]
	}
	if hasBOM {
		text = "\ufeff" + text
	}
	return text, nil
}

// refOverlap: two replacements share text, or an insert falls strictly
// inside a replacement.
func refOverlap(a, b refSpan) bool {
	switch {
	case a.start == a.end && b.start == b.end:
		return false
	case a.start == a.end:
		return b.start < a.start && a.start < b.end
	case b.start == b.end:
		return a.start < b.start && b.start < a.end
	}
	return a.start < b.end && b.start < a.end
}

// refOffset finds a position by splitting text into lines.
func refOffset(text string, p protocol.Position) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("negative")
	}
	lines := strings.SplitAfter(text, "\n")
	if p.Line >= len(lines) {
		return 0, fmt.Errorf("past the end")
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := lines[p.Line]
	if strings.HasSuffix(line, "\r\n") {
		line = line[:len(line)-2]
	} else {
		line = strings.TrimSuffix(line, "\n")
	}
	units := 0
	for i, r := range line {
		if units >= p.Character {
			return off + i, nil
		}
		if r == utf8.RuneError {
			units++
		} else {
			units += max(utf16.RuneLen(r), 1)
		}
	}
	return off + len(line), nil
}

func TestReferenceAgreesOnExamples(t *testing.T) {
	// The reference itself, on cases worked out by hand.
	got, err := referenceApply("ab\r\ncd", []protocol.TextEdit{te(0, 1, 0, 1, "1"), te(0, 1, 0, 1, "2"), te(0, 1, 0, 2, "X"), te(1, 0, 1, 0, "\n")})
	if err != nil || got != "a12X\r\n\r\ncd" {
		t.Fatalf("reference = %q, %v", got, err)
	}
	if !bytes.Equal([]byte(got), must(ApplyText([]byte("ab\r\ncd"), []protocol.TextEdit{te(0, 1, 0, 1, "1"), te(0, 1, 0, 1, "2"), te(0, 1, 0, 2, "X"), te(1, 0, 1, 0, "\n")}))) {
		t.Fatal("ApplyText disagrees with the reference")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
