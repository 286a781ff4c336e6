package protocol

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// LineIndex converts many positions in one text to byte offsets, finding
// the start of every line once instead of scanning the text from its
// beginning for each position (a rename's hundred edits in a large file).
// Its answers are Position.Offset's.
type LineIndex struct {
	text   []byte
	starts []int // byte offset where each line starts; line i ends at starts[i+1]-1 (its "\n") or at the text's end
}

// NewLineIndex indexes text, which must not change while the index is
// used.
func NewLineIndex(text []byte) *LineIndex {
	starts := make([]int, 1, bytes.Count(text, []byte{'\n'})+1)
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &LineIndex{text: text, starts: starts}
}

// Offset is the byte offset of p, as Position.Offset computes it.
func (ix *LineIndex) Offset(p Position) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("position %d:%d is negative", p.Line, p.Character)
	}
	if p.Line >= len(ix.starts) {
		return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", p.Line+1, len(ix.starts))
	}
	start, end := ix.starts[p.Line], len(ix.text)
	if p.Line+1 < len(ix.starts) {
		end = ix.starts[p.Line+1] - 1 // the "\n"
		if end > start && ix.text[end-1] == '\r' {
			end-- // the "\r" of "\r\n" is not part of the line
		}
	}
	units := 0
	for i := start; i < end; {
		if units >= p.Character {
			return i, nil
		}
		r, size := utf8.DecodeRune(ix.text[i:])
		units += utf16Len(r)
		i += size
	}
	return end, nil
}
