package session

import (
	"fmt"
	"strings"
)

// The tree view: the session as the flat list of rows a tree selector
// shows (the TUI's /tree, RPC hosts), filtered and searched.
//
// Layout. Rows come in depth-first order, the branch holding the leaf
// first at every fork, the other children oldest first. A chain of single
// children stays at one indentation level; the children of an entry with
// several children go one level deeper and are drawn with a connector
// (├─, or └─ for the last), and the first entry after a fork goes one
// level deeper still when it is not at the top, so a side branch reads as
// a block. A session with several roots (entries whose parent is missing)
// is drawn as if the roots were the children of an invisible root.
//
// Filters. Every filter hides assistant messages that only call tools
// (their calls show as the tool results below them), except the leaf and
// answers that failed or were cut short. FilterDefault shows the
// conversation — messages, custom messages, compactions and branch
// summaries — and hides bookkeeping (settings changes, labels, extension
// state and any entry type this version does not know); FilterNoTools
// hides tool results too; FilterUserOnly keeps user messages;
// FilterLabeledOnly labelled entries; FilterAll everything.

// TreeFilter selects the entries a tree view shows.
type TreeFilter string

// Tree filters, in the order a selector cycles through them.
const (
	FilterDefault     TreeFilter = "default"      // the conversation, without bookkeeping entries
	FilterNoTools     TreeFilter = "no-tools"     // the default view without tool results
	FilterUserOnly    TreeFilter = "user-only"    // user messages only
	FilterLabeledOnly TreeFilter = "labeled-only" // labelled entries only
	FilterAll         TreeFilter = "all"          // every entry
)

// TreeFilters lists the filters in cycling order.
var TreeFilters = []TreeFilter{FilterDefault, FilterNoTools, FilterUserOnly, FilterLabeledOnly, FilterAll}

// ParseTreeFilter returns the filter named s ("" is FilterDefault).
func ParseTreeFilter(s string) (TreeFilter, error) {
	if s == "" {
		return FilterDefault, nil
	}
	for _, f := range TreeFilters {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown tree filter %q: use default, no-tools, user-only, labeled-only or all", s)
}

// TreeQuery selects the rows of a tree view.
type TreeQuery struct {
	Filter TreeFilter // "" is FilterDefault
	// Search keeps the rows whose text (with their kind and label)
	// contains every whitespace-separated word of it, ignoring case.
	Search string
}

// TreeRow is one entry of a tree view, with what is needed to draw it.
type TreeRow struct {
	Entry     *Entry   // the entry (shared with the store; do not modify)
	Label     string   // its label, "" when none
	Kind      string   // the message role for message entries ("user", "assistant", "toolResult", "bashExecution", …), else the entry type
	Text      string   // one line describing the entry (see the package's tree view)
	Indent    int      // nesting level; a level is drawn three characters wide
	Connector bool     // drawn with a connector: its parent has several children
	Last      bool     // the last of its siblings (└─ rather than ├─)
	Gutters   []Gutter // vertical lines of the forks it is under
	Active    bool     // on the path from the root to the leaf
	Leaf      bool     // the leaf itself
}

// Gutter is a vertical line drawn at a nesting level for the rows under a
// fork whose branch has more siblings below.
type Gutter struct {
	Level int  `json:"level"` // nesting level of the fork's connector
	Line  bool `json:"line"`  // draw │ (more siblings follow); false draws blank space
}

// Prefix draws the row's indentation: gutters, then the connector.
func (r TreeRow) Prefix() string {
	var b strings.Builder
	for level := range r.Indent {
		g, ok := r.gutter(level)
		switch {
		case ok && g.Line:
			b.WriteString("│  ")
		case ok:
			b.WriteString("   ")
		case r.Connector && level == r.Indent-1 && r.Last:
			b.WriteString("└─ ")
		case r.Connector && level == r.Indent-1:
			b.WriteString("├─ ")
		default:
			b.WriteString("   ")
		}
	}
	return b.String()
}

func (r TreeRow) gutter(level int) (Gutter, bool) {
	for _, g := range r.Gutters {
		if g.Level == level {
			return g, true
		}
	}
	return Gutter{}, false
}

// String renders the row as a tree selector line without colours: the
// prefix, "• " for an entry on the active path, the label in brackets,
// the text.
func (r TreeRow) String() string {
	var b strings.Builder
	b.WriteString(r.Prefix())
	if r.Active {
		b.WriteString("• ")
	}
	if r.Label != "" {
		b.WriteString("[" + r.Label + "] ")
	}
	b.WriteString(r.Text)
	return b.String()
}

// TreeRows returns the session's tree view at the current leaf.
func (m *Manager) TreeRows(q TreeQuery) []TreeRow {
	m.mu.Lock()
	roots, leaf := m.tree(), m.leaf
	m.mu.Unlock()
	return FilterRows(FlattenTree(roots, leaf), q)
}

// FlattenTree lays out a forest (Manager.Tree) as rows, unfiltered: every
// entry once, parents before children, the branch holding leafID first.
func FlattenTree(roots []*TreeNode, leafID string) []TreeRow {
	// Find the leaf's node, then mark the path up to its root.
	active := map[*TreeNode]bool{}
	parent := map[*TreeNode]*TreeNode{}
	var leaf *TreeNode
	stack := append([]*TreeNode(nil), roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if leafID != "" && n.Entry.ID == leafID {
			leaf = n
		}
		for _, c := range n.Children {
			parent[c] = n
			stack = append(stack, c)
		}
	}
	for n := leaf; n != nil; n = parent[n] {
		if active[n] {
			break // a cycle; cannot happen with Manager.Tree
		}
		active[n] = true
	}

	calls := toolCallIndex(roots)
	multi := len(roots) > 1
	type item struct {
		node      *TreeNode
		indent    int  // layout level (one more than drawn with several roots)
		branched  bool // the parent has several children
		connector bool
		last      bool
		gutters   []Gutter
		virtual   bool // a root under the invisible root
	}
	var out []TreeRow
	var todo []item
	ordered := activeFirst(roots, active)
	for i := len(ordered) - 1; i >= 0; i-- {
		indent := 0
		if multi {
			indent = 1
		}
		todo = append(todo, item{node: ordered[i], indent: indent, branched: multi, connector: multi, last: i == len(ordered)-1, virtual: multi})
	}
	for len(todo) > 0 {
		it := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		drawn := it.indent
		if multi {
			drawn = max(0, it.indent-1)
		}
		e := it.node.Entry
		out = append(out, TreeRow{
			Entry:     e,
			Label:     it.node.Label,
			Kind:      entryKind(e),
			Text:      entryLine(e, calls),
			Indent:    drawn,
			Connector: it.connector && !it.virtual,
			Last:      it.last,
			Gutters:   it.gutters,
			Active:    active[it.node],
			Leaf:      it.node == leaf,
		})
		kids := activeFirst(it.node.Children, active)
		fork := len(kids) > 1
		childIndent := it.indent
		if fork || (it.branched && it.indent > 0) {
			childIndent++
		}
		gutters := it.gutters
		if it.connector && !it.virtual {
			gutters = append(append([]Gutter(nil), it.gutters...), Gutter{Level: max(0, drawn-1), Line: !it.last})
		}
		for i := len(kids) - 1; i >= 0; i-- {
			todo = append(todo, item{node: kids[i], indent: childIndent, branched: fork, connector: fork, last: i == len(kids)-1, gutters: gutters})
		}
	}
	return out
}

// activeFirst orders nodes with the one on the active path first, the
// others in their order.
func activeFirst(nodes []*TreeNode, active map[*TreeNode]bool) []*TreeNode {
	out := make([]*TreeNode, 0, len(nodes))
	for _, n := range nodes {
		if active[n] {
			out = append(out, n)
		}
	}
	for _, n := range nodes {
		if !active[n] {
			out = append(out, n)
		}
	}
	return out
}

// FilterRows keeps the rows q selects, in their order.
func FilterRows(rows []TreeRow, q TreeQuery) []TreeRow {
	filter := q.Filter
	if filter == "" {
		filter = FilterDefault
	}
	words := strings.Fields(strings.ToLower(q.Search))
	var out []TreeRow
	for _, r := range rows {
		if !r.Leaf && toolCallsOnly(r.Entry) {
			continue
		}
		if !filter.keeps(r) {
			continue
		}
		if len(words) > 0 {
			text := strings.ToLower(searchText(r))
			match := true
			for _, w := range words {
				if !strings.Contains(text, w) {
					match = false
					break
				}
			}
			if !match {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// Shows reports whether a tree view with filter f (and no search) shows
// row r: FilterRows one row at a time.
func (f TreeFilter) Shows(r TreeRow) bool {
	if f == "" {
		f = FilterDefault
	}
	return (r.Leaf || !toolCallsOnly(r.Entry)) && f.keeps(r)
}

// keeps reports whether the filter shows a row.
func (f TreeFilter) keeps(r TreeRow) bool {
	switch f {
	case FilterUserOnly:
		return r.Kind == "user" && r.Entry.Type == TypeMessage
	case FilterNoTools:
		return isConversation(r.Entry) && r.Kind != "toolResult"
	case FilterLabeledOnly:
		return r.Label != ""
	case FilterAll:
		return true
	}
	return isConversation(r.Entry)
}

// isConversation reports whether an entry is part of the conversation
// (shown by the default filter) rather than bookkeeping.
func isConversation(e *Entry) bool {
	switch e.Type {
	case TypeMessage, TypeCustomMessage, TypeCompaction, TypeBranchSummary:
		return true
	}
	return false
}
