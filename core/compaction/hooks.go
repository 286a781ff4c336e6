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

// The payloads of the tree navigation hook points (agent.Hooks
// SessionBeforeTree and SessionTree; omp's session_before_tree and
// session_tree).

// TreePreparation describes a move of the leaf before it happens.
type TreePreparation struct {
	TargetID           string           // the entry picked
	OldLeafID          string           // the leaf before the move ("" when it was null)
	CommonAncestorID   string           // the deepest entry both paths share ("" when none)
	EntriesToSummarize []*session.Entry // the entries the move leaves, oldest first (must not be modified)
	UserWantsSummary   bool             // the user asked for a summary of them
}

// BeforeTreeEvent is offered before the leaf moves (and before the branch
// left is summarised).
type BeforeTreeEvent struct {
	Preparation *TreePreparation
}

// BeforeTreeResult is a SessionBeforeTree hook's answer; nil or the zero
// value lets the move go ahead.
type BeforeTreeResult struct {
	Cancel  bool         // stop the move; nothing changes
	Summary *TreeSummary // used instead of the model's summary when the user asked for one (stored with fromExtension)
}

// TreeSummary is a branch summary a hook supplies.
type TreeSummary struct {
	Summary string // the summary text
	Details any    // stored as the entry's details (never sent to the model)
}

// TreeEvent reports a move of the leaf.
type TreeEvent struct {
	NewLeafID     string         // the leaf now ("" when null)
	OldLeafID     string         // the leaf before
	SummaryEntry  *session.Entry // the branch_summary entry written, nil when none
	FromExtension bool           // a hook supplied the summary
}
