package agentsession

import (
	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/compaction"
)

// Reasons of automatic compaction (AutoCompactionStart.Reason).
const (
	ReasonThreshold = "threshold" // the context passed the threshold after a turn
	ReasonOverflow  = "overflow"  // the provider refused the context as too long
	ReasonIdle      = "idle"      // the session was idle with a large context
)

// Actions of automatic context maintenance.
const (
	ActionContextFull = "context-full" // summarise in place
	ActionHandoff     = "handoff"      // hand the work to a new session
)

// AutoCompactionStart announces automatic compaction
// ({type:"auto_compaction_start",reason,action}).
type AutoCompactionStart struct {
	Reason string `json:"reason"` // ReasonThreshold, ReasonOverflow or ReasonIdle
	Action string `json:"action"` // ActionContextFull, or ActionHandoff (compaction.strategy handoff)
}

// AutoCompactionEnd closes automatic compaction
// ({type:"auto_compaction_end",action,result?,aborted,willRetry,errorMessage?,skipped?}).
type AutoCompactionEnd struct {
	Action       string             `json:"action"`                 // as in the start event
	Result       *compaction.Result `json:"result,omitempty"`       // the compaction stored; nil when none
	Aborted      bool               `json:"aborted"`                // cancelled (by the user or a hook)
	WillRetry    bool               `json:"willRetry"`              // the failed turn is sent again
	ErrorMessage string             `json:"errorMessage,omitempty"` // why it failed ("Auto-compaction failed: …", "Context overflow recovery failed: …")
	Skipped      bool               `json:"skipped,omitempty"`      // nothing to do (no model, nothing to compact)
}

// EventType implementations.
func (AutoCompactionStart) EventType() string { return "auto_compaction_start" }
func (AutoCompactionEnd) EventType() string   { return "auto_compaction_end" }

// MarshalJSON encodes the auto_compaction_start object.
func (e AutoCompactionStart) MarshalJSON() ([]byte, error) {
	type plain AutoCompactionStart
	return marshalTyped("auto_compaction_start", plain(e))
}

// MarshalJSON encodes the auto_compaction_end object.
func (e AutoCompactionEnd) MarshalJSON() ([]byte, error) {
	type plain AutoCompactionEnd
	return marshalTyped("auto_compaction_end", plain(e))
}

var (
	_ agent.Event = AutoCompactionStart{}
	_ agent.Event = AutoCompactionEnd{}
)
