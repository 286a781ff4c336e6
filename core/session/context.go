package session

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Context is what the session sends to the model at a leaf, and the state
// in force there.
type Context struct {
	// Messages are the conversation: ai messages and core/message agent
	// messages (pass them through message.ToLLM for a provider). They are
	// shared with the session and must not be modified.
	Messages             []ai.Message
	ThinkingLevel        string            // latest thinking level; "off" by default
	ServiceTier          string            // latest service tier; "" when none
	Models               map[string]string // role → "provider/modelId"
	InjectedTTSRRules    []string          // every rule injected on the path, first injection order, no duplicates
	SelectedMCPToolNames []string          // latest MCP discovery selection
	HasMCPToolSelection  bool              // the path has an MCP selection entry
	Mode                 string            // latest mode; "none" by default
	ModeData             json.RawMessage   // data of the latest mode change
}

func emptyContext() Context {
	return Context{ThinkingLevel: "off", Models: map[string]string{}, InjectedTTSRRules: []string{},
		SelectedMCPToolNames: []string{}, Mode: "none"}
}

// BuildContext returns the context at the current leaf.
func (m *Manager) BuildContext() Context {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.leaf == "" {
		return emptyContext()
	}
	return m.contextAt(m.byID[m.leaf])
}

// contextAtID returns the context at entry leafID ("" is the null leaf: an
// empty context).
func (m *Manager) contextAtID(leafID string) Context {
	m.mu.Lock()
	defer m.mu.Unlock()
	if leafID == "" {
		return emptyContext()
	}
	return m.contextAt(m.byID[leafID])
}

// contextAt builds the context at leaf (the last entry when nil), decoding
// only the messages it needs; the caller holds m.mu.
func (m *Manager) contextAt(leaf *Entry) Context {
	if leaf == nil {
		if len(m.entries) == 0 {
			return emptyContext()
		}
		leaf = m.entries[len(m.entries)-1]
	}
	path := pathTo(m.byID, leaf)
	m.decodeContext(path)
	return contextOf(path)
}

// decodeContext decodes the messages the context at the end of path needs;
// the caller holds m.mu.
func (m *Manager) decodeContext(path []*Entry) {
	from := contextStart(path)
	m.decode(path[from:])
	if !hasDefaultModel(path) && !hasAssistant(path[from:]) {
		// The model of the last answer stands for the default: find it
		// among the older messages, newest first.
		for i := from - 1; i >= 0; i-- {
			e := path[i]
			if e.pending != nil && e.head.mayBe(ai.RoleAssistant, "") {
				m.decodeOne(e)
			}
			if _, ok := e.Message.(*ai.AssistantMessage); ok {
				break
			}
		}
	}
}

// ContextPath returns the part of the path from the root to entry id (""
// for the leaf) that the context at id is built from, root first: from
// the latest compaction's first kept entry (or the compaction itself when
// that entry is not on the path before it) to id; the whole path when it
// has no compaction. Unlike Path it leaves the older messages undecoded,
// which makes it cheap on a long session. nil when id is unknown or the
// leaf is null.
func (m *Manager) ContextPath(id string) []*Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id == "" {
		id = m.leaf
	}
	path := contextTail(m.byID, m.byID[id])
	m.decode(path)
	return path
}

// contextTail returns path[contextStart(path):] for the path to e, walking
// back from e only as far as that part reaches (on a long session the
// path is mostly what older compactions replaced).
func contextTail(byID map[string]*Entry, e *Entry) []*Entry {
	var tail []*Entry
	at, keep := -1, "" // the latest compaction's index in tail, its first kept entry
	for x := e; x != nil; x = byID[x.ParentID] {
		if len(tail) > len(byID) {
			path := pathToChecked(byID, e) // a cycle
			return path[contextStart(path):]
		}
		tail = append(tail, x)
		if at >= 0 && x.ID == keep {
			at = -1
			break
		}
		if at < 0 && x.Compaction != nil {
			at, keep = len(tail)-1, x.Compaction.FirstKeptEntryID
		}
		if x.ParentID == "" {
			break
		}
	}
	if at >= 0 {
		tail = tail[:at+1] // the kept entry is not on the path: from the compaction on
	}
	slices.Reverse(tail)
	return tail
}

// Selector picks entries of a path by kind.
type Selector struct {
	Types     []string  // entry types; nil for every type
	Roles     []ai.Role // message entries: the roles of their messages (MessageRole); nil for every role
	ToolNames []string  // message entries holding tool results: the tools; nil for every tool
}

// admits reports whether a decoded entry is one sel picks.
func (sel Selector) admits(e *Entry) bool {
	if sel.Types != nil && !slices.Contains(sel.Types, e.Type) {
		return false
	}
	if e.Type != TypeMessage || e.Message == nil {
		return true
	}
	if sel.Roles != nil && !slices.Contains(sel.Roles, e.Message.MessageRole()) {
		return false
	}
	r, ok := e.Message.(*ai.ToolResultMessage)
	return !ok || sel.ToolNames == nil || slices.Contains(sel.ToolNames, r.ToolName)
}

// mayAdmit reports whether a pending entry may be one sel picks, from what
// is known before decoding it.
func (sel Selector) mayAdmit(e *Entry) bool {
	if sel.Types != nil && !slices.Contains(sel.Types, e.Type) {
		return false
	}
	if sel.Roles == nil {
		return true
	}
	for _, r := range sel.Roles {
		if sel.ToolNames == nil && e.head.mayBe(r, "") {
			return true
		}
		for _, t := range sel.ToolNames {
			if e.head.mayBe(r, t) {
				return true
			}
		}
	}
	return false
}

// SelectPath returns the entries of the path from the root to entry id
// ("" for the leaf) that sel picks, root first. Only messages that may be
// picked are decoded, so looking for a few entries of a long session is
// cheap where Path decodes every message. nil when id is unknown or the
// leaf is null.
func (m *Manager) SelectPath(id string, sel Selector) []*Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id == "" {
		id = m.leaf
	}
	var out []*Entry
	for _, e := range pathTo(m.byID, m.byID[id]) {
		if e.pending != nil {
			if !sel.mayAdmit(e) {
				continue
			}
			m.decodeOne(e)
		}
		if sel.admits(e) {
			out = append(out, e)
		}
	}
	return out
}

// BuildContext computes the context of entries at leafID: "" is the null
// leaf (empty context); an id not among entries means the last entry.
func BuildContext(entries []*Entry, leafID string) Context {
	if leafID == "" {
		return emptyContext()
	}
	byID := make(map[string]*Entry, len(entries))
	for _, e := range entries {
		byID[e.ID] = e
	}
	leaf := byID[leafID]
	if leaf == nil {
		if len(entries) == 0 {
			return emptyContext()
		}
		leaf = entries[len(entries)-1]
	}
	return contextOf(pathTo(byID, leaf))
}

// latestCompaction returns the index in path of its latest compaction, or
// -1.
func latestCompaction(path []*Entry) int {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Compaction != nil {
			return i
		}
	}
	return -1
}

// contextStart returns the index in path of the first entry the context
// at its end is built from (see ContextPath).
func contextStart(path []*Entry) int {
	at := latestCompaction(path)
	if at < 0 {
		return 0
	}
	for i, e := range path[:at] {
		if e.ID == path[at].Compaction.FirstKeptEntryID {
			return i
		}
	}
	return at
}

// hasDefaultModel reports whether path records a model for the default
// role (then the answers' models do not set it).
func hasDefaultModel(path []*Entry) bool {
	for _, e := range path {
		if mc := e.ModelChange; mc != nil && mc.Model != "" && (mc.Role == "" || mc.Role == "default") {
			return true
		}
	}
	return false
}

func hasAssistant(es []*Entry) bool {
	for _, e := range es {
		if _, ok := e.Message.(*ai.AssistantMessage); ok {
			return true
		}
	}
	return false
}

// contextOf collects the state and the messages along path (root to
// leaf). With a compaction on the path, the latest one's summary comes
// first, then the entries from its firstKeptEntryId up to it, then the
// entries after it (unless the compaction carries a provider's replacement
// history, which stands for the kept entries). Messages the context does
// not send may still be pending (undecoded); they are skipped.
func contextOf(path []*Entry) Context {
	c := emptyContext()
	var compaction *Entry
	explicitDefault := false
	seenRule := map[string]bool{}
	for _, e := range path {
		switch {
		case e.ThinkingLevelChange != nil:
			c.ThinkingLevel = "off"
			if l := e.ThinkingLevelChange.ThinkingLevel; l != nil {
				c.ThinkingLevel = *l
			}
		case e.ModelChange != nil:
			if e.ModelChange.Model != "" {
				role := e.ModelChange.Role
				if role == "" {
					role = "default"
				}
				c.Models[role] = e.ModelChange.Model
				if role == "default" {
					explicitDefault = true
				}
			}
		case e.ServiceTierChange != nil:
			c.ServiceTier = ""
			if t := e.ServiceTierChange.ServiceTier; t != nil {
				c.ServiceTier = *t
			}
		case e.Message != nil:
			// Sessions from before model_change entries: the assistant's
			// model stands for the default until one is recorded.
			if a, ok := e.Message.(*ai.AssistantMessage); ok && !explicitDefault {
				c.Models["default"] = a.Provider + "/" + a.Model
			}
		case e.Compaction != nil:
			compaction = e
		case e.TTSRInjection != nil:
			for _, r := range e.TTSRInjection.InjectedRules {
				if !seenRule[r] {
					seenRule[r] = true
					c.InjectedTTSRRules = append(c.InjectedTTSRRules, r)
				}
			}
		case e.MCPToolSelection != nil:
			c.SelectedMCPToolNames = append([]string{}, e.MCPToolSelection.SelectedToolNames...)
			c.HasMCPToolSelection = true
		case e.ModeChange != nil:
			c.Mode, c.ModeData = e.ModeChange.Mode, e.ModeChange.Data
		}
	}
	add := func(e *Entry) {
		switch {
		case e.Message != nil:
			c.Messages = append(c.Messages, e.Message)
		case e.CustomMessage != nil:
			cm := e.CustomMessage
			c.Messages = append(c.Messages, &message.Custom{CustomType: cm.CustomType, Content: cm.Content, Display: cm.Display,
				Details: cm.Details, Attribution: cm.Attribution, Timestamp: millis(e.Timestamp)})
		case e.BranchSummary != nil && e.BranchSummary.Summary != "":
			c.Messages = append(c.Messages, &message.BranchSummary{Summary: e.BranchSummary.Summary, FromID: e.BranchSummary.FromID, Timestamp: millis(e.Timestamp)})
		}
	}
	if compaction == nil {
		for _, e := range path {
			add(e)
		}
		return c
	}
	comp := compaction.Compaction
	payload := remoteHistory(comp.PreserveData)
	c.Messages = append(c.Messages, &message.CompactionSummary{Summary: comp.Summary, ShortSummary: comp.ShortSummary,
		TokensBefore: comp.TokensBefore, ProviderPayload: payload, Timestamp: millis(compaction.Timestamp)})
	at := 0
	for i, e := range path {
		if e == compaction {
			at = i
		}
	}
	if payload == nil {
		kept := false
		for _, e := range path[:at] {
			if e.ID == comp.FirstKeptEntryID {
				kept = true
			}
			if kept {
				add(e)
			}
		}
	}
	for _, e := range path[at+1:] {
		add(e)
	}
	return c
}

// remoteHistory returns the provider payload of a compaction done by the
// provider (omp's preserveData.openaiRemoteCompaction: a provider name and
// the replacement history items), or nil.
func remoteHistory(preserve json.RawMessage) json.RawMessage {
	if len(preserve) == 0 {
		return nil
	}
	var v struct {
		Remote *struct {
			Provider any             `json:"provider"`
			History  json.RawMessage `json:"replacementHistory"`
		} `json:"openaiRemoteCompaction"`
	}
	if json.Unmarshal(preserve, &v) != nil || v.Remote == nil {
		return nil
	}
	p, _ := v.Remote.Provider.(string)
	if p == "" || len(v.Remote.History) == 0 || v.Remote.History[0] != '[' {
		return nil
	}
	out := newPayload(p, v.Remote.History)
	return out
}

func newPayload(provider string, items json.RawMessage) json.RawMessage {
	b := []byte(`{"type":"openaiResponsesHistory","provider":`)
	b = appendQuoted(b, provider)
	b = append(b, `,"items":`...)
	b = append(b, items...)
	return append(b, '}')
}

// parseTime parses an entry timestamp (zero time when invalid).
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// millis converts an entry timestamp to Unix milliseconds, as the messages
// built from entries carry.
func millis(s string) int64 {
	t := parseTime(s)
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Millis returns the entry's timestamp in Unix milliseconds, as the
// messages built from it carry (0 when it cannot be read).
func (e *Entry) Millis() int64 { return millis(e.Timestamp) }
