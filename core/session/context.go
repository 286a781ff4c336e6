package session

import (
	"encoding/json"
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
	return buildContext(m.entries, m.byID, m.byID[m.leaf])
}

// ContextAt returns the context at entry leafID ("" is the null leaf: an
// empty context).
func (m *Manager) ContextAt(leafID string) Context {
	m.mu.Lock()
	defer m.mu.Unlock()
	if leafID == "" {
		return emptyContext()
	}
	return buildContext(m.entries, m.byID, m.byID[leafID])
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
	return buildContext(entries, byID, byID[leafID])
}

// buildContext walks from leaf (or the last entry when nil) to the root
// and collects the state and the messages along the path. With a
// compaction on the path, the latest one's summary comes first, then the
// entries from its firstKeptEntryId up to it, then the entries after it
// (unless the compaction carries a provider's replacement history, which
// stands for the kept entries).
func buildContext(entries []*Entry, byID map[string]*Entry, leaf *Entry) Context {
	if leaf == nil {
		if len(entries) == 0 {
			return emptyContext()
		}
		leaf = entries[len(entries)-1]
	}
	path := pathTo(byID, leaf)
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
