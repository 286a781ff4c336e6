package checkpoint

import (
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// The texts of the errors the tools answer with, as omp words them.
const (
	MsgSubagent      = "Checkpoint not available in subagents."
	MsgAlreadyActive = "Checkpoint already active."
	MsgNoCheckpoint  = "No active checkpoint."
	MsgEmptyReport   = "Report cannot be empty."
)

// Mark is an active checkpoint.
type Mark struct {
	Goal      string    // what the model set out to investigate
	StartedAt time.Time // when the checkpoint tool ran
	// EntryID is the session entry the conversation goes back to: the
	// last one of the turn that made the checkpoint (its tool results
	// included). "" until that turn ends (see Anchor).
	EntryID string
	// Anchored says the turn that made the checkpoint has ended and
	// EntryID is set ("" then means before the first entry).
	Anchored bool
}

// Rewind is a rewind ready to be applied: the checkpoint it ends and the
// report that replaces the exploration.
type Rewind struct {
	Mark   Mark
	Report string
}

// State is a session's checkpoint: none, one active, or one with a rewind
// requested. It is safe for concurrent use (the tools run on their own
// goroutines, the session reads it from the loop's).
//
//	idle ──Begin──▶ active ──Request──▶ rewind requested ──Take──▶ idle
//	                  ▲  └──────────── Clear (abort, session switch) ──▶ idle
//	                  └── Request again replaces the report
type State struct {
	mu      sync.Mutex
	active  *Mark
	report  string // the requested rewind's report; "" when none
	nowFunc func() time.Time
}

func (s *State) now() time.Time {
	if s.nowFunc != nil {
		return s.nowFunc()
	}
	return time.Now()
}

// Begin starts a checkpoint for goal. It fails with MsgAlreadyActive when
// one is active (a rewind requested but not yet applied included).
func (s *State) Begin(goal string) (Mark, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil {
		return Mark{}, stateError(MsgAlreadyActive)
	}
	m := Mark{Goal: goal, StartedAt: s.now().UTC()}
	s.active = &m
	s.report = ""
	return m, nil
}

// Anchor sets the entry an active, not yet anchored checkpoint goes back
// to; it reports whether it did. The session calls it at the end of every
// turn with its leaf entry.
func (s *State) Anchor(entryID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil || s.active.Anchored {
		return false
	}
	s.active.EntryID, s.active.Anchored = entryID, true
	return true
}

// Request asks for a rewind with report (trimmed). It fails with
// MsgNoCheckpoint when no checkpoint is active and MsgEmptyReport when
// the report is blank; a second request before the rewind is applied
// replaces the first one's report. It returns the trimmed report.
func (s *State) Request(report string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		return "", stateError(MsgNoCheckpoint)
	}
	report = strings.TrimSpace(report)
	if report == "" {
		return "", stateError(MsgEmptyReport)
	}
	s.report = report
	return report, nil
}

// Take returns the requested rewind and ends the checkpoint; ok is false
// (and nothing changes) when no rewind is requested or the checkpoint is
// not anchored yet (checkpoint and rewind called in the same turn: the
// session anchors first, then takes).
func (s *State) Take() (r Rewind, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil || s.report == "" || !s.active.Anchored {
		return Rewind{}, false
	}
	r = Rewind{Mark: *s.active, Report: s.report}
	s.active, s.report = nil, ""
	return r, true
}

// Active returns the active checkpoint, if any.
func (s *State) Active() (Mark, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		return Mark{}, false
	}
	return *s.active, true
}

// Pending reports whether a rewind is requested and not yet applied.
func (s *State) Pending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.report != ""
}

// NeedsRewind reports whether a checkpoint is active with no rewind
// requested: the model must not end its work like this.
func (s *State) NeedsRewind() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active != nil && s.report == ""
}

// Clear drops the active checkpoint and any requested rewind (an aborted
// run, another session loaded); it reports whether there was one.
func (s *State) Clear() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	had := s.active != nil
	s.active, s.report = nil, ""
	return had
}

// stateError is a tool error with one of the texts above.
func stateError(msg string) error { return &tool.Error{Msg: msg} }
