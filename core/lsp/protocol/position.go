package protocol

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Positions count characters in UTF-16 code units, the encoding every
// server supports (the client offers no other). A line ends at "\n"; a
// "\r" before it belongs to the line ending, as the protocol says ("\r\n",
// "\n" and "\r" all end lines; a lone "\r" is rare enough in source files
// that it is treated as text here).

// Offset is the byte offset of p in text. A character past the end of its
// line means the line's end, as the protocol asks; a line past the last
// one is an error.
func (p Position) Offset(text []byte) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("position %d:%d is negative", p.Line, p.Character)
	}
	start := 0
	for line := 0; line < p.Line; line++ {
		i := indexNewline(text[start:])
		if i < 0 {
			return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", p.Line+1, line+1)
		}
		start += i + 1
	}
	end := start + max(indexNewline(text[start:]), 0)
	if indexNewline(text[start:]) < 0 {
		end = len(text)
	}
	if end > start && text[end-1] == '\r' && end < len(text) {
		end-- // the "\r" of "\r\n" is not part of the line
	}
	units := 0
	for i := start; i < end; {
		if units >= p.Character {
			return i, nil
		}
		r, size := utf8.DecodeRune(text[i:])
		units += utf16Len(r)
		i += size
	}
	return end, nil
}

// PositionAt is the position of byte offset off in text (clamped to the
// text); an offset inside a character counts from that character's start.
func PositionAt(text []byte, off int) Position {
	off = min(max(off, 0), len(text))
	line, start := 0, 0
	for {
		i := indexNewline(text[start:off])
		if i < 0 {
			break
		}
		line++
		start += i + 1
	}
	units := 0
	for i := start; i < off; {
		r, size := utf8.DecodeRune(text[i:])
		if i+size > off {
			break
		}
		units += utf16Len(r)
		i += size
	}
	return Position{Line: line, Character: units}
}

func indexNewline(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// utf16Len is how many UTF-16 units r takes; an invalid byte counts one.
func utf16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}
