package astcli

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/internal/jsonquote"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// appendMatchJSON appends one line of `gopi ast grep --json`: exactly the
// bytes a json.Encoder with HTML escaping off writes for toMatchJSON(m),
// built without reflection and without the three maps of the
// metavariables. A search of a large tree prints tens of thousands of
// these, and the reflective encoder and its allocations were a tenth of
// the process's CPU time. TestASTJSONMatchesEncodingJSON and
// FuzzASTJSONMatchesEncodingJSON hold the two outputs equal.
func appendMatchJSON(b []byte, m ast.Match) []byte {
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

// inJSONGroup reports whether toMatchJSON puts capture c in group g of its
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

// appendJSONString appends s quoted as encoding/json does with HTML
// escaping off.
func appendJSONString(b []byte, s string) []byte { return jsonquote.Append(b, s, true) }
