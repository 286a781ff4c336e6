package agentsession

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tools/checkpoint"
)

// The checkpoint and rewind tools (package checkpoint) only move the
// session's checkpoint state; the session does the rest, at the end of
// turns:
//   - a checkpoint made in a turn is anchored at the turn's last entry
//     (its tool results included, so the kept conversation stays well
//     formed);
//   - a rewind requested in a turn is applied when the turn ends: the
//     session file branches back to the anchor with the report as a
//     branch_summary entry, a hidden rewind-report custom message follows
//     it, and the conversation the model sees is rebuilt from that branch
//     (as after a /tree move), also for the rest of the running run;
//   - a run that ends with a checkpoint open and no rewind requested sends
//     the model back to call rewind (checkpointReminder);
//   - an aborted run, or another branch or session loaded, drops the
//     checkpoint.

// CustomTypeRewindReport is the custom message that carries a rewind's
// report after the branch summary, as omp names it.
const CustomTypeRewindReport = "rewind-report"

// CustomTypeCheckpointReminder is the hidden message that sends the model
// back to rewind an open checkpoint.
const CustomTypeCheckpointReminder = "checkpoint-reminder"

// maxCheckpointReminders bounds the reminders of one prompt: a model that
// keeps stopping without a rewind is not sent back forever.
const maxCheckpointReminders = 3

// rewindDetails are the details of the rewind-report message.
type rewindDetails struct {
	StartedAt string `json:"startedAt"`
	RewoundAt string `json:"rewoundAt"`
}

// checkpointTurnEnd anchors a checkpoint made in the turn that ended and
// applies a rewind it requested.
func (s *Session) checkpointTurnEnd() {
	cp := s.svc.Checkpoint
	if cp == nil {
		return
	}
	store := s.Store()
	cp.Anchor(store.LeafID())
	r, ok := cp.Take()
	if !ok {
		return
	}
	started := checkpoint.ISOTime(r.Mark.StartedAt)
	branchDetails := map[string]string{"startedAt": started}
	if _, err := store.BranchWithSummary(r.Mark.EntryID, r.Report, branchDetails, false); errors.Is(err, session.ErrNotFound) {
		// The anchor is gone (the file was rewritten meanwhile): the
		// report starts the conversation over, as omp falls back.
		_, _ = store.BranchWithSummary("", r.Report, branchDetails, false)
	}
	details, _ := json.Marshal(rewindDetails{StartedAt: started, RewoundAt: checkpoint.ISOTime(time.Now())})
	// Errors are latched by the store; Prompt and Err report them.
	_, _ = store.Record(session.CustomMessage{CustomType: CustomTypeRewindReport, Content: message.PlainText(r.Report),
		Display: false, Details: details, Attribution: "agent"})
	s.agent.ReplaceMessages(store.BuildContext().Messages)
}

// checkpointRunEnd drops the checkpoint when the run was aborted: its
// exploration was cut short and the next prompt starts afresh.
func (s *Session) checkpointRunEnd(ev agent.AgentEnd) {
	if s.svc.Checkpoint == nil {
		return
	}
	for i := len(ev.Messages) - 1; i >= 0; i-- {
		if m, ok := ev.Messages[i].(*ai.AssistantMessage); ok {
			if m.StopReason == ai.StopReasonAborted {
				s.svc.Checkpoint.Clear()
			}
			return
		}
	}
}

// checkpointReminder returns the message that sends the model back to
// call rewind when it stopped (not failed or aborted, no tool calls) with a
// checkpoint open and no rewind requested, nil otherwise or after
// maxCheckpointReminders (sent counts those of this prompt).
func (s *Session) checkpointReminder(sent int) ai.Message {
	if s.svc.Checkpoint == nil || !s.svc.Checkpoint.NeedsRewind() || sent >= maxCheckpointReminders {
		return nil
	}
	last := s.LastAssistant()
	if last == nil || last.StopReason == ai.StopReasonError || last.StopReason == ai.StopReasonAborted || len(last.ToolCalls()) > 0 {
		return nil
	}
	text := "<system-warning>\nA checkpoint is still open. Before you finish, call rewind with a report of what your investigation found; do not end your turn while the checkpoint is active.\n</system-warning>"
	return &message.Custom{CustomType: CustomTypeCheckpointReminder, Content: message.PlainText(text), Display: false, Attribution: "agent", Timestamp: nowMillis()}
}
