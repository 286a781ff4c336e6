package session

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gopi-agent/gopi/core/ai"
)

// Prune names a tool-result entry whose output is replaced by a short
// notice to save context (compaction's pruning of old tool output).
type Prune struct {
	EntryID  string // a message entry holding a tool result
	Text     string // the notice that replaces the content, e.g. "[Output truncated - 1234 tokens]"
	PrunedAt int64  // Unix milliseconds, stored as the message's prunedAt
}

// PruneToolResults replaces the content of tool-result entries with a
// text notice, marks them pruned (prunedAt) and rewrites the session
// file. This is the one change the store makes to an existing entry:
// entries keep their ids, parents and timestamps, and the members of the
// stored line other than content and prunedAt keep their bytes (as omp
// does, prunedAt is added at the end of the message). The pruned entries
// are new Entry values; entries handed out before keep the old messages.
func (m *Manager) PruneToolResults(prunes []Prune) error {
	if len(prunes) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	var pruned []*Entry
	at := make(map[*Entry]int, len(m.entries))
	for i, e := range m.entries {
		at[e] = i
	}
	for _, p := range prunes {
		old := m.decodeOne(m.byID[p.EntryID])
		if old == nil {
			return fmt.Errorf("prune entry %s: %w", p.EntryID, ErrNotFound)
		}
		r, ok := old.Message.(*ai.ToolResultMessage)
		if !ok {
			return fmt.Errorf("prune entry %s: not a tool result", p.EntryID)
		}
		msg := *r
		msg.Content = ai.ContentList{ai.Text(p.Text)}
		msg.PrunedAt = p.PrunedAt
		e := &Entry{Type: old.Type, ID: old.ID, ParentID: old.ParentID, Timestamp: old.Timestamp, Message: &msg}
		if old.raw != nil {
			content, err := json.Marshal(msg.Content)
			if err != nil {
				return fmt.Errorf("prune entry %s: %w", p.EntryID, err)
			}
			body := objGet(old.raw, "message")
			body = objSet(objSet(body, "content", content), "prunedAt", strconv.AppendInt(nil, p.PrunedAt, 10))
			e.raw = objSet(old.raw, "message", body)
			e.replaces = old.raw
		}
		m.entries[at[old]] = e
		at[e] = at[old]
		m.byID[e.ID] = e
		pruned = append(pruned, e)
	}
	if m.disk == nil || !m.onDisk {
		return nil
	}
	err := m.rewrite()
	for _, e := range pruned {
		e.replaces = nil
	}
	return m.latch(err)
}
