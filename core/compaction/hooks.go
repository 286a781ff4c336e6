package compaction

import (
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// The payloads of the compaction hook points (agent.Hooks
// SessionBeforeCompact, SessionCompacting and SessionCompact; omp's
// session_before_compact, session.compacting and session_compact).

// BeforeCompactEvent is offered before a compaction is generated.
type BeforeCompactEvent struct {
	Preparation        *Preparation     // the plan: what is summarised and kept
	BranchEntries      []*session.Entry // the session path, root first (must not be modified)
	CustomInstructions string           // the user's instructions ("" for automatic compaction)
}

// BeforeCompactResult is a SessionBeforeCompact hook's answer; nil or the
// zero value lets the compaction go ahead.
type BeforeCompactResult struct {
	Cancel     bool    // stop the compaction ("Compaction cancelled")
	Compaction *Result // use this compaction instead of asking the model (stored with fromExtension)
}

// CompactingEvent is offered before the default summary is generated.
type CompactingEvent struct {
	SessionID string       // the session's id
	Messages  []ai.Message // the messages that will be summarised (history and turn prefix)
}

// CompactingResult is a SessionCompacting hook's answer: nil fields change
// nothing.
type CompactingResult struct {
	Context      []string       // lines for <additional-context>
	Prompt       string         // replaces the summary instructions
	PreserveData map[string]any // stored on the compaction entry
}

// CompactEvent reports a stored compaction.
type CompactEvent struct {
	Entry         *session.Entry // the compaction entry
	FromExtension bool           // a hook supplied the compaction
}
