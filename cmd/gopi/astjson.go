package main

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// appendASTJSON appends one line of `gopi ast grep --json`: exactly the
// bytes a json.Encoder with HTML escaping off writes for toASTJSON(m),
// built without reflection and without the three maps of the
// metavariables. A search of a large tree prints tens of thousands of
// these, and the reflective encoder and its allocations were a tenth of
// the process's CPU time. TestASTJSONMatchesEncodingJSON and
// FuzzASTJSONMatchesEncodingJSON hold the two outputs equal.
func appendASTJSON(b []byte, m ast.Match) []byte {
	b = append(b, `{"text":`...)
	b = appendJSONString(b, m.Text)
	b = append(b, `,"range":`...)
	b = appendJSONSpan(b, m.Start, m.End)
	b = append(b, `,"file":`...)
	b = appendJSONString(b, m.Path)
	b = append(b, `,"lines":`...)
	b = appendJSONString(b, m.Lines)
	b = append(b, `,"language":`...)
	b = appendJSONString(b, m.Lang)
	if len(m.Captures) > 0 {
		b = appendJSONMeta(b, m.Captures)
	}
	return append(b, "}\n"...)
}

// appendJSONMeta appends the "metaVariables" member: single captures,
// multiple ones and transformed variables, each an object with its keys
// sorted and, as in a map, the last capture of a name winning.
func appendJSONMeta(b []byte, caps []astgrep.Capture) []byte {
	// Stable by name, so the last of equal names stays last.
	order := make([]int, len(caps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return strings.Compare(caps[x].Name, caps[y].Name) })
	groups := [3]string{`,"metaVariables":{"single":{`, `},"multi":{`, `},"transformed":{`}
	for g, head := range groups {
		b = append(b, head...)
		first := true
		for k, i := range order {
			c := &caps[i]
			if !inJSONGroup(c, g) {
				continue
			}
			if replacedLater(caps, order[k+1:], c.Name, g) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, c.Name)
			b = append(b, ':')
			switch g {
			case 0:
				b = appendJSONNode(b, c.Nodes[0])
			case 1:
				b = append(b, '[')
				for x, n := range c.Nodes {
					if x > 0 {
						b = append(b, ',')
					}
					b = appendJSONNode(b, n)
				}
				b = append(b, ']')
			case 2:
				b = appendJSONString(b, c.Nodes[0].Text)
			}
		}
	}
	return append(b, "}}"...)
}

// replacedLater reports whether a capture named name in group g follows
// in rest (ordered by name): as in a map, that later one is kept.
func replacedLater(caps []astgrep.Capture, rest []int, name string, g int) bool {
	for _, i := range rest {
		if caps[i].Name != name {
			return false
		}
		if inJSONGroup(&caps[i], g) {
			return true
		}
	}
	return false
}

// inJSONGroup reports whether toASTJSON puts capture c in group g of its
// metavariables (0 single, 1 multi, 2 transformed).
func inJSONGroup(c *astgrep.Capture, g int) bool {
	switch {
	case c.Transformed:
		return g == 2 && len(c.Nodes) == 1
	case c.Multi:
		return g == 1
	default:
		return g == 0 && len(c.Nodes) == 1
	}
}

func appendJSONNode(b []byte, n astgrep.Node) []byte {
	b = append(b, `{"text":`...)
	b = appendJSONString(b, n.Text)
	b = append(b, `,"range":`...)
	b = appendJSONSpan(b, n.Start, n.End)
	return append(b, '}')
}

func appendJSONSpan(b []byte, s, e astgrep.Pos) []byte {
	b = append(b, `{"byteOffset":{"start":`...)
	b = strconv.AppendInt(b, int64(s.Offset), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, int64(e.Offset), 10)
	b = append(b, `},"start":`...)
	b = appendJSONPos(b, s)
	b = append(b, `,"end":`...)
	b = appendJSONPos(b, e)
	return append(b, '}')
}

func appendJSONPos(b []byte, p astgrep.Pos) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendInt(b, int64(p.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendInt(b, int64(p.Column), 10)
	return append(b, '}')
}

// jsonPlain marks the ASCII bytes a JSON string holds as they are.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json does with HTML
// escaping off: '"', '\\' and control characters escaped (\b \f \n \r \t
// short), invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexd[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
