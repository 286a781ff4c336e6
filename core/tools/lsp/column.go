package lsp

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// occurrence splits "name#N" (N counted from 1) from a symbol; the last
// "#digits" is the selector, so "#field#2" is the second "#field".
var occurrence = regexp.MustCompile(`^(.+)#(\d+)$`)

// position resolves a 1-based line and an optional symbol to an LSP
// position in abs: the symbol's first character on that line (the exact
// text first, else ignoring case; the N-th occurrence with "name#N"), or
// without a symbol the line's first non-blank character. Columns count
// UTF-16 units, as the document the server has (no byte order mark).
func position(abs string, line int, symbol *string) (protocol.Position, error) {
	line = max(line, 1)
	data, err := lsp.ReadDocument(abs)
	if err != nil {
		return protocol.Position{}, err
	}
	return positionIn(data, line, symbol)
}

// positionIn is position in a file's content.
func positionIn(data []byte, line int, symbol *string) (protocol.Position, error) {
	line = max(line, 1)
	lines := strings.Split(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), "\n")
	text := ""
	if line <= len(lines) {
		text = lines[line-1]
	}
	pos := protocol.Position{Line: line - 1}
	if symbol == nil || *symbol == "" {
		i := strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) })
		pos.Character = utf16Len(text[:max(i, 0)])
		return pos, nil
	}
	name, n := *symbol, 1
	if m := occurrence.FindStringSubmatch(name); m != nil {
		name = m[1]
		if v, err := strconv.Atoi(m[2]); err == nil {
			n = max(v, 1)
		} else {
			n = int(^uint(0) >> 1)
		}
	}
	hits := matches([]rune(text), []rune(name), false)
	if len(hits) == 0 {
		hits = matches([]rune(text), []rune(name), true)
	}
	if len(hits) == 0 {
		return protocol.Position{}, fmt.Errorf("Symbol %q not found on line %d", name, line)
	}
	if n > len(hits) {
		return protocol.Position{}, fmt.Errorf("Symbol %q occurrence %d is out of bounds on line %d (found %d)", name, n, line, len(hits))
	}
	pos.Character = hits[n-1]
	return pos, nil
}

// matches returns the UTF-16 columns where needle starts in hay, left to
// right without overlaps.
func matches(hay, needle []rune, fold bool) []int {
	var out []int
	col := 0
	for i := 0; i+len(needle) <= len(hay); {
		if equalRunes(hay[i:i+len(needle)], needle, fold) {
			out = append(out, col)
			for _, r := range hay[i : i+len(needle)] {
				col += utf16.RuneLen(r)
			}
			i += len(needle)
			continue
		}
		col += utf16.RuneLen(hay[i])
		i++
	}
	return out
}

func equalRunes(a, b []rune, fold bool) bool {
	for i := range a {
		x, y := a[i], b[i]
		if fold {
			x, y = unicode.ToLower(x), unicode.ToLower(y)
		}
		if x != y {
			return false
		}
	}
	return true
}

// utf16Len is the length of s in UTF-16 units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1)
	}
	return n
}
