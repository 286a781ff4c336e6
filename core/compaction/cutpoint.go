package compaction

import (
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// CutPoint says where a compaction cuts entries[start:end].
type CutPoint struct {
	// FirstKept is the index of the first entry kept verbatim.
	FirstKept int
	// TurnStart is the index of the entry that starts the turn FirstKept
	// falls in, when the cut splits that turn; -1 otherwise.
	TurnStart int
	// SplitTurn reports whether the cut falls inside a turn (not on the
	// message that starts it).
	SplitTurn bool
}

// isCutPoint reports whether a compaction may keep entries from e on.
// Tool results never start the kept part: they belong to the call before
// them. Entries that are no message (settings changes, labels, custom
// state, compactions) are not cut points either; they follow the cut.
func isCutPoint(e *session.Entry) bool {
	switch e.Type {
	case session.TypeCustomMessage, session.TypeBranchSummary:
		return true
	case session.TypeMessage:
		switch e.Message.(type) {
		case *ai.UserMessage, *ai.AssistantMessage, *message.BashExecution, *message.Custom,
			*message.BranchSummary, *message.CompactionSummary:
			return true
		}
	}
	return false
}

// startsTurn reports whether e starts a user turn: a user message, a
// command the user ran, or a message an extension or a branch summary put
// in the user's place.
func startsTurn(e *session.Entry) bool {
	switch e.Type {
	case session.TypeCustomMessage, session.TypeBranchSummary:
		return true
	case session.TypeMessage:
		switch e.Message.(type) {
		case *ai.UserMessage, *message.BashExecution:
			return true
		}
	}
	return false
}

// turnStart returns the index of the entry that starts the turn holding
// entries[i], looking back no further than start; -1 when there is none.
func turnStart(entries []*session.Entry, i, start int) int {
	for ; i >= start; i-- {
		if startsTurn(entries[i]) {
			return i
		}
	}
	return -1
}

// FindCutPoint chooses where to cut entries[start:end] so that about
// keepRecentTokens of the newest messages stay: walking back from the
// newest message and adding up their tokens (c; custom_message and
// branch_summary entries count too, which omp leaves out), it stops at the
// first message that reaches the budget and cuts at the first cut point at or
// after it (the oldest cut point when the whole range fits). Entries that
// are not messages just before the cut (model or thinking changes, labels)
// are kept with it, back to the previous entry that is in the context (a
// message, a custom_message or branch_summary entry) or a compaction. A cut on a
// message that does not start a user turn (an assistant message, say)
// splits that turn; TurnStart then names the turn's first entry.
func FindCutPoint(entries []*session.Entry, start, end, keepRecentTokens int, c *Counter) CutPoint {
	cut := -1
	for i := start; i < end; i++ {
		if isCutPoint(entries[i]) {
			cut = i
			break
		}
	}
	if cut < 0 {
		return CutPoint{FirstKept: start, TurnStart: -1}
	}
	acc := 0
	for i := end - 1; i >= start; i-- {
		n, ok := c.countEntry(entries[i])
		if !ok {
			continue
		}
		acc += n
		if acc >= keepRecentTokens {
			for j := i; j < end; j++ {
				if isCutPoint(entries[j]) {
					cut = j
					break
				}
			}
			break
		}
	}
	// Whether the cut splits a turn is decided on the message cut at:
	// metadata pulled in below does not make a cut at a user message a
	// split one. (omp decides after pulling, so a model change just before
	// a user message makes it summarise the whole previous turn as a
	// "turn prefix"; we do not copy that.)
	ts := -1
	if !startsTurn(entries[cut]) {
		ts = turnStart(entries, cut, start)
	}
	for cut > start {
		prev := entries[cut-1]
		if prev.Type == session.TypeCompaction || entryMessage(prev) != nil {
			break
		}
		cut--
	}
	return CutPoint{FirstKept: cut, TurnStart: ts, SplitTurn: ts != -1}
}
