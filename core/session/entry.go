package session

import (
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Entry types, as they appear in the "type" field.
const (
	TypeMessage             = "message"               // Entry.Message
	TypeModelChange         = "model_change"          // Entry.ModelChange
	TypeThinkingLevelChange = "thinking_level_change" // Entry.ThinkingLevelChange
	TypeServiceTierChange   = "service_tier_change"   // Entry.ServiceTierChange
	TypeCompaction          = "compaction"            // Entry.Compaction
	TypeBranchSummary       = "branch_summary"        // Entry.BranchSummary
	TypeCustom              = "custom"                // Entry.Custom (never in the context)
	TypeCustomMessage       = "custom_message"        // Entry.CustomMessage
	TypeLabel               = "label"                 // Entry.Label
	TypeTTSRInjection       = "ttsr_injection"        // Entry.TTSRInjection
	TypeSessionInit         = "session_init"          // Entry.SessionInit
	TypeModeChange          = "mode_change"           // Entry.ModeChange
	TypeMCPToolSelection    = "mcp_tool_selection"    // Entry.MCPToolSelection
)

// Entry is one line of a session file after the header: a node of the
// session tree. Exactly one payload field is set, the one for Type; an
// entry of a type this version does not know has none and is kept only to
// be written back. Entries are immutable once appended: the store shares
// them (and their messages) with every caller, who must not modify them.
type Entry struct {
	Type      string // entry type, one of the Type constants or unknown
	ID        string // 8 lowercase hex characters for entries this package creates
	ParentID  string // parent entry id; "" for a root entry (JSON null)
	Timestamp string // creation time, ISO 8601 UTC with milliseconds

	Message             ai.Message           // TypeMessage: any ai or core/message message
	ModelChange         *ModelChange         // TypeModelChange
	ThinkingLevelChange *ThinkingLevelChange // TypeThinkingLevelChange
	ServiceTierChange   *ServiceTierChange   // TypeServiceTierChange
	Compaction          *Compaction          // TypeCompaction
	BranchSummary       *BranchSummary       // TypeBranchSummary
	Custom              *Custom              // TypeCustom
	CustomMessage       *CustomMessage       // TypeCustomMessage
	Label               *Label               // TypeLabel
	TTSRInjection       *TTSRInjection       // TypeTTSRInjection
	SessionInit         *SessionInit         // TypeSessionInit
	ModeChange          *ModeChange          // TypeModeChange
	MCPToolSelection    *MCPToolSelection    // TypeMCPToolSelection

	// Fields are the members, besides type, id, parentId and timestamp, of
	// an entry of a type this package does not model that AppendOther
	// created (a JSON object); nil otherwise. Entries of such types read
	// from a file keep their members in Raw.
	Fields json.RawMessage

	// raw is the entry as stored: the line read from the file, or the
	// persisted form (after size controls) of an entry we wrote; nil until
	// then. A rewrite writes raw back, so fields we do not model survive.
	raw []byte
	// replaces is, until the next rewrite, the stored line this entry
	// replaced (PruneToolResults): the rewrite puts raw in its place.
	replaces []byte

	// pending is, for a message entry read from a file whose message has
	// not been decoded yet, the message's JSON (a slice of raw); nil once
	// Message is set. The store decodes messages when they are first
	// needed (lazy.go) and never hands out an entry still pending.
	pending []byte
	head    msgHead // what the scan of the line learnt of the pending message
	line    int     // 1-based line of the file the entry was read from; 0 for entries made here
}

// ModelChange records a model switch.
type ModelChange struct {
	Model string `json:"model"`          // "provider/modelId"
	Role  string `json:"role,omitempty"` // model role ("default", "smol", "slow", …); "" means default
}

// ThinkingLevelChange records a thinking level switch.
type ThinkingLevelChange struct {
	ThinkingLevel *string `json:"thinkingLevel"` // the new level; nil (JSON null) means off
}

// ServiceTierChange records a service tier switch.
type ServiceTierChange struct {
	ServiceTier *string `json:"serviceTier"` // the new tier, e.g. "flex"; nil (JSON null) clears it
}

// Compaction replaces the start of the conversation up to FirstKeptEntryID
// with a summary in the context.
type Compaction struct {
	Summary          string          `json:"summary"`                // the summary sent in place of the compacted entries
	ShortSummary     string          `json:"shortSummary,omitempty"` // a one-line recap for lists
	FirstKeptEntryID string          `json:"firstKeptEntryId"`       // first entry still sent in full
	TokensBefore     int             `json:"tokensBefore"`           // context tokens before compaction
	Details          json.RawMessage `json:"details,omitempty"`      // compactor data (e.g. read and modified files)
	FromExtension    bool            `json:"fromExtension"`          // produced by an extension (always written, as omp does)
	PreserveData     json.RawMessage `json:"preserveData,omitempty"` // hook data kept across compaction
}

// BranchSummary summarises the branch the user left when navigating back.
type BranchSummary struct {
	FromID        string          `json:"fromId"`                  // entry branched from; "root" when from before the first entry
	Summary       string          `json:"summary"`                 // the summary
	Details       json.RawMessage `json:"details,omitempty"`       // extension data, never sent to the model
	FromExtension bool            `json:"fromExtension,omitempty"` // produced by an extension
}

// Custom is extension state kept in the session; never part of the context.
type Custom struct {
	CustomType string          `json:"customType"`     // the extension's identifier
	Data       json.RawMessage `json:"data,omitempty"` // the state
}

// CustomMessage is a message an extension put into the context.
type CustomMessage struct {
	CustomType  string          `json:"customType"`            // the extension's identifier
	Content     message.Content `json:"content"`               // string or text/image blocks
	Display     bool            `json:"display"`               // shown in the UI
	Details     json.RawMessage `json:"details,omitempty"`     // extension data, never sent to the model
	Attribution string          `json:"attribution,omitempty"` // "user" or "agent"
}

// Label sets or clears (Label "") a user bookmark on another entry.
type Label struct {
	TargetID string `json:"targetId"`        // the labelled entry
	Label    string `json:"label,omitempty"` // the label; "" clears it
}

// TTSRInjection records rules the time-travelling stream rules injected.
type TTSRInjection struct {
	InjectedRules []string `json:"injectedRules"` // rule names
}

// SessionInit records how a (subagent) session was started.
type SessionInit struct {
	SystemPrompt string          `json:"systemPrompt"`           // the full system prompt
	Task         string          `json:"task"`                   // the initial task
	Tools        []string        `json:"tools"`                  // tool names available
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"` // requested output schema, if any
}

// ModeChange records an agent mode switch (e.g. plan mode).
type ModeChange struct {
	Mode string          `json:"mode"`           // the mode; "none" when leaving one
	Data json.RawMessage `json:"data,omitempty"` // mode data (e.g. the plan file)
}

// MCPToolSelection records the MCP tools selected through discovery.
type MCPToolSelection struct {
	SelectedToolNames []string `json:"selectedToolNames"` // tool names
}

// payload returns the entry's payload value for encoding, or nil.
func (e *Entry) payload() any {
	switch e.Type {
	case TypeModelChange:
		return e.ModelChange
	case TypeThinkingLevelChange:
		return e.ThinkingLevelChange
	case TypeServiceTierChange:
		return e.ServiceTierChange
	case TypeCompaction:
		return e.Compaction
	case TypeBranchSummary:
		return e.BranchSummary
	case TypeCustom:
		return e.Custom
	case TypeCustomMessage:
		return e.CustomMessage
	case TypeLabel:
		return e.Label
	case TypeTTSRInjection:
		return e.TTSRInjection
	case TypeSessionInit:
		return e.SessionInit
	case TypeModeChange:
		return e.ModeChange
	case TypeMCPToolSelection:
		return e.MCPToolSelection
	}
	return nil
}

// encode returns the entry's JSON in omp's member order: type, id,
// parentId, timestamp, then the payload; custom and custom_message entries
// put their payload before id (as omp's object literals do). The result is
// not yet prepared for persistence (see prepare).
func (e *Entry) encode() ([]byte, error) {
	b := []byte(`{"type":`)
	b = appendQuoted(b, e.Type)
	var pay []byte
	if e.Type == TypeMessage {
		if e.Message == nil {
			return nil, fmt.Errorf("encode entry %s: message entry without a message", e.ID)
		}
		m, err := json.Marshal(e.Message)
		if err != nil {
			return nil, fmt.Errorf("encode entry %s: %w", e.ID, err)
		}
		pay = append([]byte(`"message":`), m...)
	} else if e.Fields != nil && e.payload() == nil {
		if len(e.Fields) > 2 {
			pay = e.Fields[1 : len(e.Fields)-1]
		}
	} else if p := e.payload(); p != nil {
		m, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encode entry %s: %w", e.ID, err)
		}
		if len(m) > 2 {
			pay = m[1 : len(m)-1]
		}
	}
	payFirst := e.Type == TypeCustom || e.Type == TypeCustomMessage
	if payFirst && len(pay) > 0 {
		b = append(append(b, ','), pay...)
	}
	b = append(b, `,"id":`...)
	b = appendQuoted(b, e.ID)
	b = append(b, `,"parentId":`...)
	if e.ParentID == "" {
		b = append(b, "null"...)
	} else {
		b = appendQuoted(b, e.ParentID)
	}
	b = append(b, `,"timestamp":`...)
	b = appendQuoted(b, e.Timestamp)
	if !payFirst && len(pay) > 0 {
		b = append(append(b, ','), pay...)
	}
	return append(b, '}'), nil
}

// decodePayload fills the payload field for e.Type from the entry's JSON.
// Unknown types are left without a payload.
func (e *Entry) decodePayload(line, msg []byte) error {
	var p any
	switch e.Type {
	case TypeMessage:
		if msg == nil {
			return fmt.Errorf("message entry without a message")
		}
		m, err := decodeMessage(msg)
		if err != nil {
			return err
		}
		e.Message = m
		return nil
	case TypeModelChange:
		e.ModelChange = &ModelChange{}
		p = e.ModelChange
	case TypeThinkingLevelChange:
		e.ThinkingLevelChange = &ThinkingLevelChange{}
		p = e.ThinkingLevelChange
	case TypeServiceTierChange:
		e.ServiceTierChange = &ServiceTierChange{}
		p = e.ServiceTierChange
	case TypeCompaction:
		e.Compaction = &Compaction{}
		p = e.Compaction
	case TypeBranchSummary:
		e.BranchSummary = &BranchSummary{}
		p = e.BranchSummary
	case TypeCustom:
		e.Custom = &Custom{}
		p = e.Custom
	case TypeCustomMessage:
		e.CustomMessage = &CustomMessage{}
		p = e.CustomMessage
	case TypeLabel:
		e.Label = &Label{}
		p = e.Label
	case TypeTTSRInjection:
		e.TTSRInjection = &TTSRInjection{}
		p = e.TTSRInjection
	case TypeSessionInit:
		e.SessionInit = &SessionInit{}
		p = e.SessionInit
	case TypeModeChange:
		e.ModeChange = &ModeChange{}
		p = e.ModeChange
	case TypeMCPToolSelection:
		e.MCPToolSelection = &MCPToolSelection{}
		p = e.MCPToolSelection
	default:
		return nil
	}
	if err := json.Unmarshal(line, p); err != nil {
		e.clearPayload()
		return fmt.Errorf("%s entry: %w", e.Type, err)
	}
	return nil
}

func (e *Entry) clearPayload() {
	*e = Entry{Type: e.Type, ID: e.ID, ParentID: e.ParentID, Timestamp: e.Timestamp, raw: e.raw}
}

// Raw returns the entry's JSON as stored in the file (nil while the entry
// has not been persisted). The slice must not be modified.
func (e *Entry) Raw() []byte { return e.raw }

// MarshalJSON encodes the entry as a session file line holds it (omp's
// member order), before the size controls of persistence (long strings
// are not cut, images stay inline). An entry of a type this version does
// not model is written as it was read.
func (e *Entry) MarshalJSON() ([]byte, error) {
	if e.Type != TypeMessage && e.payload() == nil && e.Fields == nil && e.raw != nil {
		return e.raw, nil
	}
	return e.encode()
}
