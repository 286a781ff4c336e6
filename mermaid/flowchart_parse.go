package mermaid

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Shape is how a flowchart node is drawn.
type Shape int

// Node shapes. Mermaid has more; each is drawn as the nearest of these.
const (
	ShapeBox      Shape = iota // A[text], and the shapes drawn as boxes
	ShapeRound                 // A(text), A([text]), A((text)), A(((text)))
	ShapeDecision              // A{text}, A{{text}}
)

// Node is a flowchart node.
type Node struct {
	ID    string
	Label []string // lines of text; the id when none is given
	Shape Shape
	Group *Group // the innermost subgraph it belongs to; nil for none
}

// Group is a subgraph: a frame around its nodes, with a title.
type Group struct {
	ID     string
	Title  string
	Parent *Group // the subgraph it is nested in; nil at the top
}

// Head is the end of an edge.
type Head int

// Edge ends.
const (
	HeadNone   Head = iota // ---
	HeadArrow              // -->
	HeadCross              // --x
	HeadCircle             // --o
)

// Edge is a link between two nodes.
type Edge struct {
	From, To   string
	Label      string
	Head, Tail Head // ends at To and at From (<-->)
	Dotted     bool // -.->
	Thick      bool // ==>
}

// Direction is the way a flowchart flows.
type Direction string

// Directions.
const (
	TopDown   Direction = "TD"
	BottomUp  Direction = "BT"
	LeftRight Direction = "LR"
	RightLeft Direction = "RL"
)

// Flowchart is a parsed flowchart.
type Flowchart struct {
	Direction Direction
	Nodes     []*Node // in order of first mention
	Edges     []Edge
	Groups    []*Group // subgraphs, in order of appearance
	byID      map[string]*Node
	open      []*Group // the subgraphs being read, innermost last
}

// SyntaxError is a line of the source that cannot be read.
type SyntaxError struct {
	Line int    // 1-based
	Text string // the statement
	Msg  string // what is wrong
}

// Error says which line could not be read and why.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("Mermaid line %d: %s in %q", e.Line, e.Msg, e.Text)
}

var (
	headerRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(graph|flowchart)(?:\s+(TD|TB|BT|LR|RL))?\s*$`)
	})
	// linkRe matches a link at the start of the rest of a statement: an
	// optional "<", then either a link with its text inside ("-- text
	// -->", "== text ==>", "-. text .->") or a bare one ("-->", "---",
	// "-.->", "==>", "--x", "--o"), then an optional "|text|".
	linkRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(<)?(?:(--|==|-\.)\s+([^|<>]*?)\s*(-{2,}|={2,}|\.+-)([>xo])?|(-{2,}|={2,}|-\.+-)([>xo])?)(?:\s*\|([^|]*)\|)?`)
	})
	skipRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(classDef|class|style|linkStyle|click|direction|accTitle|accDescr)\b`)
	})
	subgraphRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^subgraph(?:\s+([^\s\[]+)\s*(?:\[\s*"?([^"\]]*)"?\s*\])?(.*))?$`)
	})
)

// statements splits source into statements with their line numbers:
// lines and ";"-separated parts (outside quotes and brackets), without
// %% comments and blank ones.
func statements(src string) (out []stmt) {
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if strings.HasPrefix(line, "%%") {
			continue
		}
		depth, quoted, start := 0, false, 0
		for j, r := range line {
			switch {
			case r == '"':
				quoted = !quoted
			case quoted:
			case r == '[' || r == '(' || r == '{':
				depth++
			case r == ']' || r == ')' || r == '}':
				depth--
			case r == ';' && depth <= 0:
				out = appendStmt(out, line[start:j], i+1)
				start = j + 1
			}
		}
		out = appendStmt(out, line[start:], i+1)
	}
	return out
}

// stmt is one statement and the line it is on.
type stmt struct {
	text string
	line int
}

func appendStmt(out []stmt, s string, line int) []stmt {
	if s = strings.TrimSpace(s); s != "" {
		out = append(out, stmt{s, line})
	}
	return out
}

// ParseFlowchart reads a flowchart: a "graph" or "flowchart" header with
// an optional direction (TD when none), then node and edge statements.
// Subgraphs are read for their nodes and edges (they are not framed);
// styling statements are skipped.
func ParseFlowchart(src string) (*Flowchart, error) {
	st := statements(src)
	if len(st) == 0 {
		return nil, fmt.Errorf("the Mermaid source is empty")
	}
	m := headerRe().FindStringSubmatch(st[0].text)
	if m == nil {
		return nil, &SyntaxError{Line: st[0].line, Text: st[0].text, Msg: "expected a header such as \"graph TD\" or \"flowchart LR\""}
	}
	fc := &Flowchart{Direction: TopDown, byID: map[string]*Node{}}
	switch m[2] {
	case "BT":
		fc.Direction = BottomUp
	case "LR":
		fc.Direction = LeftRight
	case "RL":
		fc.Direction = RightLeft
	}
	for _, s := range st[1:] {
		switch {
		case s.text == "end":
			if len(fc.open) > 0 {
				fc.open = fc.open[:len(fc.open)-1]
			}
			continue
		case skipRe().MatchString(s.text):
			continue
		case subgraphRe().MatchString(s.text):
			fc.openGroup(subgraphRe().FindStringSubmatch(s.text))
			continue
		}
		if err := fc.statement(s.text); err != nil {
			return nil, &SyntaxError{Line: s.line, Text: s.text, Msg: err.Error()}
		}
		if len(fc.Nodes) > MaxNodes || len(fc.Edges) > MaxNodes*4 || len(fc.Groups) > MaxNodes {
			return nil, fmt.Errorf("the diagram has more than %d nodes or %d edges; split it into smaller diagrams", MaxNodes, MaxNodes*4)
		}
	}
	return fc, nil
}

// openGroup starts a subgraph from its header's parts: "subgraph id",
// "subgraph id [title]", or "subgraph A title with spaces" (the whole text
// is the title, and its id).
func (fc *Flowchart) openGroup(m []string) {
	g := &Group{ID: m[1], Title: cleanText(m[2])}
	if rest := strings.TrimSpace(m[3]); m[2] == "" && rest != "" {
		g.ID = strings.TrimSpace(m[1] + " " + rest)
	}
	if g.Title == "" {
		g.Title = cleanText(strings.Trim(g.ID, `"`))
	}
	if len(fc.open) > 0 {
		g.Parent = fc.open[len(fc.open)-1]
	}
	fc.Groups = append(fc.Groups, g)
	fc.open = append(fc.open, g)
}

// statement reads one node or chain statement: groups of nodes joined by
// "&", linked one group to the next.
func (fc *Flowchart) statement(s string) error {
	var prev []string
	var link Edge
	rest := s
	for {
		group, r, err := fc.nodeGroup(rest)
		if err != nil {
			return err
		}
		rest = r
		for _, from := range prev {
			for _, to := range group {
				e := link
				e.From, e.To = from, to
				fc.Edges = append(fc.Edges, e)
			}
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return nil
		}
		m := linkRe().FindStringSubmatchIndex(rest)
		if m == nil {
			return fmt.Errorf("cannot read %q: expected an arrow such as --> or ---", clip(rest))
		}
		link = parseLink(rest, m)
		rest = rest[m[1]:]
		if strings.TrimSpace(rest) == "" {
			return fmt.Errorf("an arrow needs a node after it")
		}
		prev = group
	}
}

// parseLink reads the link linkRe matched at m in s.
func parseLink(s string, m []int) Edge {
	group := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	body, head := group(6), group(7)
	e := Edge{Label: strings.TrimSpace(group(8))}
	if group(2) != "" {
		body, head = group(2)+group(4), group(5)
		if e.Label == "" {
			e.Label = strings.TrimSpace(group(3))
		}
	}
	e.Dotted = strings.Contains(body, ".")
	e.Thick = strings.Contains(body, "=")
	e.Head = headOf(head)
	if group(1) != "" {
		e.Tail = HeadArrow
	}
	e.Label = cleanText(e.Label)
	return e
}

func headOf(s string) Head {
	switch s {
	case ">":
		return HeadArrow
	case "x":
		return HeadCross
	case "o":
		return HeadCircle
	}
	return HeadNone
}

// nodeGroup reads "A", "A[text]", "A & B[text] & C" and returns the ids.
func (fc *Flowchart) nodeGroup(s string) (ids []string, rest string, err error) {
	rest = s
	for {
		var id string
		id, rest, err = fc.node(rest)
		if err != nil {
			return nil, "", err
		}
		ids = append(ids, id)
		t := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(t, "&") {
			return ids, rest, nil
		}
		rest = t[1:]
	}
}

// shapes are the node delimiters, longest first.
var shapes = []struct {
	open, close string
	shape       Shape
}{
	{"(((", ")))", ShapeRound}, {"([", "])", ShapeRound}, {"((", "))", ShapeRound},
	{"[[", "]]", ShapeBox}, {"[(", ")]", ShapeBox}, {"[/", "/]", ShapeBox}, {"[/", `\]`, ShapeBox},
	{`[\`, `\]`, ShapeBox}, {`[\`, "/]", ShapeBox}, {"{{", "}}", ShapeDecision},
	{"[", "]", ShapeBox}, {"(", ")", ShapeRound}, {"{", "}", ShapeDecision}, {">", "]", ShapeBox},
}

// node reads one node reference with its optional shape and text.
func (fc *Flowchart) node(s string) (id, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) {
		r := rune(s[i])
		if r >= 0x80 {
			rr := []rune(s[i:])[0]
			if !unicode.IsLetter(rr) && !unicode.IsDigit(rr) {
				break
			}
			i += len(string(rr))
			continue
		}
		if isIDByte(s[i]) || s[i] == '-' && i+1 < len(s) && isIDByte(s[i+1]) && i > 0 {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return "", "", fmt.Errorf("expected a node id at %q", clip(s))
	}
	id, rest = s[:i], s[i:]
	n := fc.byID[id]
	if n == nil {
		n = &Node{ID: id, Label: []string{id}}
		fc.byID[id] = n
		fc.Nodes = append(fc.Nodes, n)
	}
	if n.Group == nil && len(fc.open) > 0 {
		n.Group = fc.open[len(fc.open)-1]
	}
	for _, sh := range shapes {
		if !strings.HasPrefix(rest, sh.open) {
			continue
		}
		body := rest[len(sh.open):]
		var text string
		if t := strings.TrimLeft(body, " "); strings.HasPrefix(t, `"`) {
			end := strings.IndexByte(t[1:], '"')
			if end < 0 {
				return "", "", fmt.Errorf("the text of node %s has no closing quote", id)
			}
			text, body = t[1:1+end], strings.TrimLeft(t[2+end:], " ")
			if !strings.HasPrefix(body, sh.close) {
				continue
			}
			body = body[len(sh.close):]
		} else {
			end := strings.Index(body, sh.close)
			if end < 0 {
				continue
			}
			text, body = body[:end], body[end+len(sh.close):]
		}
		n.Label, n.Shape = splitLabel(text), sh.shape
		rest = body
		break
	}
	if strings.HasPrefix(rest, ":::") { // a class: skipped
		j := 3
		for j < len(rest) && isIDByte(rest[j]) {
			j++
		}
		rest = rest[j:]
	}
	return id, rest, nil
}

func isIDByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// brRe matches Mermaid's line breaks in labels.
var brRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)<br\s*/?>|\\n`) })

// splitLabel turns a node's text into lines.
func splitLabel(s string) []string {
	parts := brRe().Split(s, -1)
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		out = append(out, cleanText(p))
	}
	return out
}

// cleanText trims s and replaces control characters with spaces, so a
// label cannot move the cursor or colour the terminal.
func cleanText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(strings.ReplaceAll(s, "&quot;", `"`))
}

// clip shortens s for an error message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
