package ast

import "strings"

// Message is the finding's rule message with its metavariables filled in
// from the match, as ast-grep fills them: $NAME and $$NAME become the text
// of the single capture NAME, $$$NAME the source from the first to the last
// node of the multi capture NAME, and a name the match did not capture (or
// captured as the other kind) becomes empty. A name is an upper-case letter
// or '_' followed by upper-case letters, digits and '_'; any other '$' is
// text.
func (f Finding) Message() string {
	msg := f.Rule.Message
	if !strings.Contains(msg, "$") {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		if msg[i] != '$' {
			j := strings.IndexByte(msg[i:], '$')
			if j < 0 {
				j = len(msg) - i
			}
			b.WriteString(msg[i : i+j])
			i += j
			continue
		}
		dollars := 1
		for dollars < 3 && i+dollars < len(msg) && msg[i+dollars] == '$' {
			dollars++
		}
		n := metaNameLen(msg[i+dollars:])
		if n == 0 {
			b.WriteByte('$')
			i++
			continue
		}
		name := msg[i+dollars : i+dollars+n]
		b.WriteString(f.Match.captureText(name, dollars == 3))
		i += dollars + n
	}
	return b.String()
}

// metaNameLen is the length of the metavariable name s starts with (0: none).
func metaNameLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c >= 'A' && c <= 'Z' || c == '_' || n > 0 && c >= '0' && c <= '9' {
			n++
			continue
		}
		break
	}
	return n
}

// captureText is the text the match captured as name (multi: a $$$ capture),
// "" when it captured nothing of that kind under that name.
func (m Match) captureText(name string, multi bool) string {
	for _, c := range m.Captures {
		if c.Name != name || c.Multi != multi {
			continue
		}
		if len(c.Nodes) == 0 {
			return ""
		}
		if !multi {
			return c.Nodes[0].Text
		}
		// The source between the first and last node, separators and
		// spacing included, when the match's text holds it.
		lo, hi := c.Nodes[0].Start.Offset-m.Start.Offset, c.Nodes[len(c.Nodes)-1].End.Offset-m.Start.Offset
		if lo >= 0 && lo <= hi && hi <= len(m.Text) {
			return m.Text[lo:hi]
		}
		parts := make([]string, len(c.Nodes))
		for i, n := range c.Nodes {
			parts[i] = n.Text
		}
		return strings.Join(parts, "")
	}
	return ""
}
