package hashline

import (
	"strconv"
	"strings"
)

// BodySeparator separates an anchor from the line text in a row: `41th|text`.
// It is fixed; only the edit payload separator can be changed (EditSeparator).
const BodySeparator = "|"

// appendAnchor appends line's number and hash to dst.
func appendAnchor(dst []byte, line int, text string) []byte {
	dst = strconv.AppendInt(dst, int64(line), 10)
	return append(dst, bigrams[hashIndex(line, text)]...)
}

// AppendAnchor appends the anchor token of a line ("41th") to dst.
func AppendAnchor(dst []byte, line int, text string) []byte {
	return appendAnchor(dst, line, text)
}

// FormatLine returns one anchored row, `LINE` + hash + "|" + text. A
// trailing '\r' (from a CRLF file) is not shown.
func FormatLine(line int, text string) string {
	text = strings.TrimSuffix(text, "\r")
	b := make([]byte, 0, len(text)+12)
	b = appendAnchor(b, line, text)
	b = append(b, BodySeparator...)
	b = append(b, text...)
	return string(b)
}

// AppendRows formats every line of content as an anchored row, numbering
// from firstLine, in one pass and without per-line allocation. Rows are
// separated by '\n'; a final line terminator does not produce an extra row;
// a '\r' before a '\n' is not shown. The result is appended to dst.
func AppendRows(dst []byte, content string, firstLine int) []byte {
	var num lineNumber
	num.set(firstLine)
	first := true
	// Most files hold no '\r' at all: one look saves a search per line.
	hasCR := strings.IndexByte(content, '\r') >= 0
	for len(content) > 0 {
		var text string
		if i := strings.IndexByte(content, '\n'); i >= 0 {
			text, content = content[:i], content[i+1:]
		} else {
			text, content = content, ""
		}
		if !first {
			dst = append(dst, '\n')
		}
		first = false
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		dst = append(dst, num.digits()...)
		if hasCR {
			dst = append(dst, bigrams[hashIndex(num.value, text)]...)
		} else {
			dst = append(dst, bigrams[normalizedIndex(num.value, trimRightSpace(text))]...)
		}
		dst = append(dst, BodySeparator...)
		dst = append(dst, text...)
		num.inc()
	}
	return dst
}

// lineNumber is a line number kept in decimal, so that numbering a file
// costs an increment per line instead of a conversion.
type lineNumber struct {
	value int
	buf   [20]byte
	start int // buf[start:] holds the digits
}

func (n *lineNumber) set(v int) {
	n.value = v
	s := strconv.AppendInt(n.buf[:0], int64(v), 10)
	n.start = len(n.buf) - len(s)
	copy(n.buf[n.start:], s)
}

func (n *lineNumber) digits() []byte { return n.buf[n.start:] }

// inc adds one, carrying through the decimal digits.
func (n *lineNumber) inc() {
	n.value++
	if n.value <= 0 { // not a plain positive count: fall back to conversion
		n.set(n.value)
		return
	}
	for i := len(n.buf) - 1; i >= n.start; i-- {
		if n.buf[i] != '9' {
			n.buf[i]++
			return
		}
		n.buf[i] = '0'
	}
	n.start--
	n.buf[n.start] = '1'
}

// FormatFile returns the whole of content as anchored rows numbered from 1.
func FormatFile(content string) string {
	return string(AppendRows(make([]byte, 0, len(content)+len(content)/4+16), content, 1))
}

// FormatLines formats lines (without terminators) as anchored rows
// numbered from firstLine, joined by '\n'.
func FormatLines(lines []string, firstLine int) string {
	size := 0
	for _, l := range lines {
		size += len(l) + 12
	}
	b := make([]byte, 0, size)
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		l = strings.TrimSuffix(l, "\r")
		b = appendAnchor(b, firstLine+i, l)
		b = append(b, BodySeparator...)
		b = append(b, l...)
	}
	return string(b)
}

// SplitLines splits text into lines without their '\n' terminators. A
// final terminator ends the last line rather than starting an empty one,
// so "a\nb\n" and "a\nb" both have two lines and "" has none. A '\r'
// before a '\n' stays part of its line.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
