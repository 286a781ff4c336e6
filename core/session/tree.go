package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// ErrNotFound is returned for an entry id the session does not have.
var ErrNotFound = errors.New("entry not found")

// append adds a new entry under the leaf, makes it the leaf and persists
// it. The entry stays in memory (and in the context) even when persisting
// fails; the error is the latched persistence error.
func (m *Manager) append(e *Entry) (string, error) {
	e.ID = newEntryID(m.opts.Rand, func(id string) bool { return m.byID[id] != nil })
	e.ParentID = m.leaf
	e.Timestamp = isoTime(m.opts.Now())
	m.index(e)
	m.leaf = e.ID
	return e.ID, m.persist(e)
}

func (m *Manager) appendLocked(e *Entry) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.append(e)
}

// AppendMessage appends a message entry: any ai message or core/message
// agent message, except the two summaries, which have entries of their own
// (a Compaction record, BranchWithSummary). The message must not be modified
// afterwards.
func (m *Manager) AppendMessage(msg ai.Message) (string, error) {
	switch msg.(type) {
	case nil:
		return "", errors.New("append message: nil message")
	case *message.CompactionSummary, *message.BranchSummary:
		return "", fmt.Errorf("append message: a %s message is not stored as a message; record a Compaction or use BranchWithSummary", msg.MessageRole())
	}
	return m.appendLocked(&Entry{Type: TypeMessage, Message: msg})
}

// AppendOther records an entry of a type of the caller's own (hooks-v2's
// ctx.saveEntry): fields is a JSON object of its other members; its own
// type, id, parentId and timestamp members are replaced. The types this
// package models and "session" are refused. Such entries are never part
// of the context; they are written back as they are.
func (m *Manager) AppendOther(typ string, fields json.RawMessage) (string, error) {
	if err := checkOtherType(typ); err != nil {
		return "", err
	}
	obj := map[string]json.RawMessage{}
	if len(fields) > 0 && string(fields) != "null" {
		if err := json.Unmarshal(fields, &obj); err != nil {
			return "", fmt.Errorf("save entry %q: the entry must be a JSON object: %w", typ, err)
		}
	}
	for _, k := range []string{"type", "id", "parentId", "timestamp"} {
		delete(obj, k)
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return "", fmt.Errorf("save entry %q: %w", typ, err)
	}
	return m.appendLocked(&Entry{Type: typ, Fields: raw})
}

// reservedTypes are the entry types AppendOther refuses.
var reservedTypes = map[string]bool{
	TypeMessage: true, TypeModelChange: true, TypeThinkingLevelChange: true, TypeServiceTierChange: true,
	TypeCompaction: true, TypeBranchSummary: true, TypeCustom: true, TypeCustomMessage: true, TypeLabel: true,
	TypeTTSRInjection: true, TypeSessionInit: true, TypeModeChange: true, TypeMCPToolSelection: true, "session": true,
}

// checkOtherType accepts a type name of letters, digits, '_', '-', '.'
// and ':' (1–64 characters) that is not reserved.
func checkOtherType(typ string) error {
	if reservedTypes[typ] {
		return fmt.Errorf("save entry: %q is one of gopi's own entry types; use a name of your own, such as \"myext_%s\"", typ, typ)
	}
	if typ == "" || len(typ) > 64 {
		return fmt.Errorf("save entry: the type must be 1 to 64 characters, got %d", len(typ))
	}
	for _, c := range typ {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-.:", c)) {
			return fmt.Errorf("save entry: the type %q may hold only letters, digits, '_', '-', '.' and ':'", typ)
		}
	}
	return nil
}

// Branch moves the leaf to entry id; the next append becomes its child.
// An empty id moves it before the first entry: the next append is a new
// root. Entries are not changed.
func (m *Manager) Branch(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id != "" && m.byID[id] == nil {
		return fmt.Errorf("branch to %s: %w", id, ErrNotFound)
	}
	m.leaf = id
	return nil
}

// BranchWithSummary moves the leaf to fromID ("" for before the first
// entry) and appends a branch_summary entry there summarising the branch
// that was left; its fromId is fromID, or "root".
func (m *Manager) BranchWithSummary(fromID, summary string, details any, fromExtension bool) (string, error) {
	raw, err := rawJSON(details)
	if err != nil {
		return "", fmt.Errorf("branch with summary: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if fromID != "" && m.byID[fromID] == nil {
		return "", fmt.Errorf("branch to %s: %w", fromID, ErrNotFound)
	}
	m.leaf = fromID
	from := fromID
	if from == "" {
		from = "root"
	}
	return m.append(&Entry{Type: TypeBranchSummary, BranchSummary: &BranchSummary{FromID: from, Summary: summary, Details: raw, FromExtension: fromExtension}})
}

// LeafID returns the leaf entry's id ("" when the leaf is null).
func (m *Manager) LeafID() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.leaf
}

// Leaf returns the leaf entry (nil when the leaf is null).
func (m *Manager) Leaf() *Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.decodeOne(m.byID[m.leaf])
}

// Entry returns the entry with id, or nil.
func (m *Manager) Entry(id string) *Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.decodeOne(m.byID[id])
}

// Entries returns all entries in file order (header excluded).
func (m *Manager) Entries() []*Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.decode(m.entries)
	return slices.Clone(m.entries)
}

// children returns the entries whose parent is id, in file order.
func (m *Manager) children(id string) []*Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Entry
	for _, e := range m.entries {
		if e.ParentID == id && id != "" {
			out = append(out, e)
		}
	}
	m.decode(out)
	return out
}

// Path returns the entries from the root to entry id ("" for the leaf),
// root first; nil when id is unknown or the leaf is null.
func (m *Manager) Path(id string) []*Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id == "" {
		id = m.leaf
	}
	path := pathTo(m.byID, m.byID[id])
	m.decode(path)
	return path
}

// pathTo walks parent links from e to the root and returns the path root
// first. A cycle (possible only in a corrupt file) ends the walk.
func pathTo(byID map[string]*Entry, e *Entry) []*Entry {
	// A path without a cycle has at most one entry per id: walk that far
	// without remembering ids (on a long session the set of ids seen costs
	// more than the walk), then again with them if the walk goes on.
	var path []*Entry
	for x := e; x != nil; x = byID[x.ParentID] {
		if len(path) > len(byID) {
			return pathToChecked(byID, e)
		}
		path = append(path, x)
		if x.ParentID == "" {
			break
		}
	}
	slices.Reverse(path)
	return path
}

// pathToChecked is pathTo remembering the ids seen, for a walk that has a
// cycle.
func pathToChecked(byID map[string]*Entry, e *Entry) []*Entry {
	var path []*Entry
	seen := map[string]bool{}
	for e != nil && !seen[e.ID] {
		seen[e.ID] = true
		path = append(path, e)
		if e.ParentID == "" {
			break
		}
		e = byID[e.ParentID]
	}
	slices.Reverse(path)
	return path
}

// Label returns the label of entry id ("" when none).
func (m *Manager) Label(id string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.labels[id]
}

// TreeNode is an entry with its children, for tree views.
type TreeNode struct {
	Entry    *Entry      // the entry
	Label    string      // its label, if any
	Children []*TreeNode // child entries, oldest first
}

// Tree returns the session as a forest: entries with a null, missing or
// self parent are roots.
func (m *Manager) Tree() []*TreeNode {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tree()
}

// tree builds the forest; the caller holds m.mu.
func (m *Manager) tree() []*TreeNode {
	m.decode(m.entries)
	nodes := make(map[*Entry]*TreeNode, len(m.entries))
	for _, e := range m.entries {
		nodes[e] = &TreeNode{Entry: e, Label: m.labels[e.ID]}
	}
	var roots []*TreeNode
	for _, e := range m.entries {
		n := nodes[e]
		p := m.byID[e.ParentID]
		if e.ParentID == "" || e.ParentID == e.ID || p == nil {
			roots = append(roots, n)
			continue
		}
		nodes[p].Children = append(nodes[p].Children, n)
	}
	for _, n := range nodes {
		slices.SortStableFunc(n.Children, func(a, b *TreeNode) int { return compareTime(a.Entry.Timestamp, b.Entry.Timestamp) })
	}
	return roots
}

func compareTime(a, b string) int {
	ta, tb := parseTime(a), parseTime(b)
	return ta.Compare(tb)
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func rawJSON(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if len(v) > 0 && !json.Valid(v) {
			return nil, errors.New("invalid JSON")
		}
		return v, nil
	}
	return json.Marshal(v)
}
