// Package jstext reproduces the few JavaScript string rules that decide
// results gopi must share with omp (which runs on JavaScript): what counts
// as white space to String.prototype.trim and its relatives.
package jstext

import (
	"strings"
	"unicode"
)

// IsSpace reports whether r is white space or a line terminator to
// JavaScript: Unicode white space and the byte-order mark U+FEFF, but not
// U+0085 (NEXT LINE), which Go's unicode.IsSpace counts.
func IsSpace(r rune) bool { return unicode.IsSpace(r) && r != '\u0085' || r == '\uFEFF' }

// Trim is String.prototype.trim: s without leading and trailing IsSpace.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }
