package read

import (
	"bytes"
	"unicode/utf8"
)

// looksBinary reports whether data is not UTF-8 text: a NUL byte, or an
// invalid UTF-8 sequence, in its first sniffSize bytes.
func looksBinary(data []byte) bool {
	head := data[:min(len(data), sniffSize)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if len(head) < len(data) { // a rune cut by the sniff boundary is fine
		for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
			if utf8.RuneStart(head[i]) {
				if !utf8.FullRune(head[i:]) {
					head = head[:i]
				}
				break
			}
		}
	}
	return !utf8.Valid(head)
}

// isASCIILetter reports whether c is a-z or A-Z.
func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
