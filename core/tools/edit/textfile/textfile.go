// Package textfile separates a text file's content from its encoding
// details — a UTF-8 byte-order mark and the line-ending style — so edits
// work on plain "\n"-separated text and the file is written back exactly
// as it was encoded.
//
// The line-ending style is the style of the first line break: a file
// whose first break is "\r\n" is a CRLF file. Normalising turns every
// "\r\n" into "\n" (lone '\r' characters are content and are kept);
// restoring turns every "\n" back into "\r\n" for a CRLF file.
package textfile

import "strings"

// bom is the UTF-8 encoding of U+FEFF.
const bom = "\ufeff"

// Doc is a decoded text file.
type Doc struct {
	Text string // content with "\n" line breaks and no byte-order mark
	BOM  bool   // the file started with a UTF-8 byte-order mark
	CRLF bool   // the file's first line break was "\r\n"
}

// Decode splits raw file bytes into a Doc.
func Decode(raw []byte) Doc {
	s := string(raw)
	var d Doc
	if rest, ok := strings.CutPrefix(s, bom); ok {
		d.BOM, s = true, rest
	}
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		d.CRLF = true
	}
	if d.CRLF {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	d.Text = s
	return d
}

// Encode returns text encoded the way d's file was: "\n" becomes "\r\n"
// for a CRLF file and the byte-order mark is restored.
func (d Doc) Encode(text string) []byte {
	if d.CRLF {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	if d.BOM {
		text = bom + text
	}
	return []byte(text)
}

// Lines splits "\n"-separated text into lines without terminators and
// reports whether the text ended with a line break. "" has no lines.
func Lines(text string) (lines []string, finalNewline bool) {
	if text == "" {
		return nil, false
	}
	lines = strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1], true
	}
	return lines, false
}

// Join is the inverse of Lines.
func Join(lines []string, finalNewline bool) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, "\n")
	if finalNewline {
		s += "\n"
	}
	return s
}
