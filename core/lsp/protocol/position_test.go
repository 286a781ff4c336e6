package protocol

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestOffsetAndPositionAt(t *testing.T) {
	text := []byte("ab\r\nx😀y\né\n")
	for _, c := range []struct {
		pos Position
		off int
	}{
		{Position{0, 0}, 0},
		{Position{0, 2}, 2},
		{Position{0, 9}, 2}, // past the line's end: its end, before "\r\n"
		{Position{1, 0}, 4},
		{Position{1, 1}, 5},
		{Position{1, 3}, 9}, // the emoji is two UTF-16 units
		{Position{1, 4}, 10},
		{Position{2, 1}, 13},
		{Position{3, 0}, 14},
	} {
		got, err := c.pos.Offset(text)
		if err != nil || got != c.off {
			t.Errorf("Offset(%v) = %d, %v; want %d", c.pos, got, err, c.off)
		}
	}
	if _, err := (Position{Line: 4}).Offset(text); err == nil {
		t.Error("a line past the end was accepted")
	}
	for _, c := range []struct {
		off int
		pos Position
	}{{0, Position{0, 0}}, {4, Position{1, 0}}, {9, Position{1, 3}}, {7, Position{1, 1}}, {14, Position{3, 0}}, {99, Position{3, 0}}} {
		if got := PositionAt(text, c.off); got != c.pos {
			t.Errorf("PositionAt(%d) = %v, want %v", c.off, got, c.pos)
		}
	}
}

// FuzzPosition checks the fast conversions against a slow reference that
// splits the text into lines and each line into UTF-16 units.
func FuzzPosition(f *testing.F) {
	f.Add([]byte("a\r\nb😀c\n\xffd"), 1, 2)
	f.Add([]byte(""), 0, 0)
	f.Fuzz(func(t *testing.T, text []byte, line, char int) {
		line, char = line%8, char%16
		if line < 0 || char < 0 {
			return
		}
		got, err := Position{line, char}.Offset(text)
		want, ok := referenceOffset(text, line, char)
		if (err == nil) != ok || (ok && got != want) {
			t.Fatalf("Offset(%d:%d) of %q = %d, %v; reference %d, %v", line, char, text, got, err, want, ok)
		}
		if ok && utf8.Valid(text) {
			if back, _ := PositionAt(text, got).Offset(text); back != got {
				t.Fatalf("PositionAt(%d) = %v does not map back (%d)", got, PositionAt(text, got), back)
			}
		}
	})
}

func referenceOffset(text []byte, line, char int) (int, bool) {
	start := 0
	for l := 0; ; l++ {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if l == line {
			content := end
			if content > start && text[content-1] == '\r' && end < len(text) {
				content--
			}
			units := 0
			for i := start; i < content; {
				if units >= char {
					return i, true
				}
				r, size := utf8.DecodeRune(text[i:])
				n := len(utf16.Encode([]rune{r}))
				units += n
				i += size
			}
			return content, true
		}
		if end == len(text) {
			return 0, false
		}
		start = end + 1
	}
}
