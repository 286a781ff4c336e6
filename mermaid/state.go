package mermaid

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

var (
	stateHeaderRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^stateDiagram(-v2)?$`) })
	stateTransitionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\[\*\]|[\w.-]+)\s*-->\s*(\[\*\]|[\w.-]+)\s*(?::(.*))?$`)
	})
	stateAliasRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^state\s+"([^"]*)"\s+as\s+([\w.-]+)\s*\{?$`)
	})
	stateDeclRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^state\s+([\w.-]+)\s*(<<(choice|fork|join)>>)?\s*\{?$`)
	})
	stateDescRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([\w.-]+)\s*:\s*(.*)$`) })
	stateSkipRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(note\b|end note$|classDef\b|class\b|style\b|hide\b|scale\b|accTitle|accDescr|--$)`)
	})
	stateDirRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^direction\s+(TB|TD|BT|LR|RL)$`) })
)

// ParseState reads a state diagram (stateDiagram or stateDiagram-v2)
// into a flowchart: states are rounded boxes, [*] is a start (●) where
// a transition leaves it and an end (◉) where one enters it, choices are
// decisions, transitions are arrows with their labels. Composite states
// are read for their inner states and transitions (not framed); notes
// and styling are skipped.
func ParseState(src string) (*Flowchart, error) {
	fc := &Flowchart{Direction: TopDown, byID: map[string]*Node{}}
	seenHeader, inNote := false, false
	for i, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || strings.HasPrefix(line, "%%") {
			continue
		}
		if !seenHeader {
			if !stateHeaderRe().MatchString(line) {
				return nil, &SyntaxError{Line: i + 1, Text: line, Msg: "expected the header \"stateDiagram-v2\""}
			}
			seenHeader = true
			continue
		}
		if inNote {
			inNote = line != "end note"
			continue
		}
		switch {
		case line == "}" || line == "{":
		case stateDirRe().MatchString(line):
			fc.Direction = normalDirection(stateDirRe().FindStringSubmatch(line)[1])
		case strings.HasPrefix(line, "note ") && !strings.Contains(line, ":"):
			inNote = true
		case stateSkipRe().MatchString(line):
		case stateTransitionRe().MatchString(line):
			m := stateTransitionRe().FindStringSubmatch(line)
			from, to := fc.stateNode(m[1], "start"), fc.stateNode(m[2], "end")
			fc.Edges = append(fc.Edges, Edge{From: from, To: to, Head: HeadArrow, Label: cleanText(m[3])})
		case stateAliasRe().MatchString(line):
			m := stateAliasRe().FindStringSubmatch(line)
			fc.byID[fc.stateNode(m[2], "")].Label = splitLabel(m[1])
		case stateDeclRe().MatchString(line):
			m := stateDeclRe().FindStringSubmatch(line)
			if strings.HasSuffix(line, "{") {
				break // a composite state: its inner states are read, it is not drawn
			}
			n := fc.byID[fc.stateNode(m[1], "")]
			if m[3] == "choice" {
				n.Shape = ShapeDecision
			}
		case stateDescRe().MatchString(line):
			m := stateDescRe().FindStringSubmatch(line)
			n := fc.byID[fc.stateNode(m[1], "")]
			n.Label = append([]string{n.ID}, splitLabel(m[2])...)
		default:
			return nil, &SyntaxError{Line: i + 1, Text: line, Msg: "cannot read this statement; expected a transition such as \"A --> B : event\", a state or a note"}
		}
		if len(fc.Nodes) > MaxNodes || len(fc.Edges) > MaxNodes*4 {
			return nil, fmt.Errorf("the diagram has more than %d states or %d transitions; split it into smaller diagrams", MaxNodes, MaxNodes*4)
		}
	}
	if !seenHeader {
		return nil, fmt.Errorf("the Mermaid source is empty")
	}
	return fc, nil
}

// stateNode returns the id of a state, adding its node; "[*]" is the
// start or the end pseudo-state as role says.
func (fc *Flowchart) stateNode(id, role string) string {
	label := id
	if id == "[*]" {
		id, label = "[*]"+role, "●"
		if role == "end" {
			label = "◉"
		}
	}
	if n := fc.byID[id]; n != nil {
		return id
	}
	n := &Node{ID: id, Label: []string{label}, Shape: ShapeRound}
	fc.byID[id] = n
	fc.Nodes = append(fc.Nodes, n)
	return id
}

// normalDirection maps a direction keyword to a Direction (TB is TD).
func normalDirection(s string) Direction {
	switch s {
	case "BT":
		return BottomUp
	case "LR":
		return LeftRight
	case "RL":
		return RightLeft
	}
	return TopDown
}
