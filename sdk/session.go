package sdk

import (
	"context"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
)

// Session is a running conversation: the part of the session runtime an
// embedding program drives, chosen and kept stable here. Its methods are
// safe for concurrent use.
//
// Prompt runs the agent until it is done; Steer and FollowUp queue
// messages for a run in progress; Abort stops it; Subscribe sees every
// event. Compact(ctx, instructions) summarises the older part of the
// conversation now and returns the CompactionResult; the session also
// compacts by itself (see the compaction.* settings), announcing it with
// AutoCompactionStart and AutoCompactionEnd events.
//
// The session is a tree: Tree(TreeQuery) lists its entries as the rows of
// a tree selector (filters FilterDefault, FilterNoTools, FilterUserOnly,
// FilterLabeledOnly, FilterAll; a search), SetLabel bookmarks one,
// Navigate(ctx, id, NavigateOptions) moves to it in the same file (with a
// summary of the branch left, when asked), Branch(ctx, id) starts a new
// file from a user message, and Handoff(ctx, instructions) continues in a
// new session from a document the model writes.
//
// Runtime returns the session runtime itself (core/agentsession) for what
// this surface leaves out.
type Session struct {
	rt *agentsession.Session
}

// New starts a session.
func New(ctx context.Context, opts Options) (*Session, error) {
	rt, err := agentsession.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Session{rt: rt}, nil
}

// Runtime returns the session runtime behind s, with every part of it
// (tools, resources, the user's shell, …).
func (s *Session) Runtime() *agentsession.Session { return s.rt }

// Prompt sends text and runs the agent until it is done (see
// agentsession.Session.Prompt for the errors and the delivery of a prompt
// sent while a run streams).
func (s *Session) Prompt(ctx context.Context, text string, opts PromptOptions) error {
	return s.rt.Prompt(ctx, text, opts)
}

// Steer queues text to be delivered before the next model call.
func (s *Session) Steer(text string, images ...*ai.ImageContent) { s.rt.Turn().Steer(text, images...) }

// FollowUp queues text to be delivered when the current run would end.
func (s *Session) FollowUp(text string, images ...*ai.ImageContent) {
	s.rt.Turn().FollowUp(text, images...)
}

// Abort stops the current run (its partial answer is kept) and any
// compaction, branch summary or handoff in progress.
func (s *Session) Abort() { s.rt.Abort() }

// WaitIdle waits until no run is in progress and the work after it is
// done.
func (s *Session) WaitIdle(ctx context.Context) error { return s.rt.Turn().WaitIdle(ctx) }

// Subscribe registers fn for every event of the session and returns a
// function that removes it.
func (s *Session) Subscribe(fn func(Event)) (cancel func()) { return s.rt.Subscribe(fn) }

// Messages returns the conversation the model sees next (a copy).
func (s *Session) Messages() []ai.Message { return s.rt.Messages() }

// LastAssistantText returns the text of the last assistant message.
func (s *Session) LastAssistantText() string { return s.rt.LastAssistantText() }

// State returns a snapshot of the session.
func (s *Session) State() State { return s.rt.State() }

// SetModel switches the model from the next request on and records the
// change in the session.
func (s *Session) SetModel(m *ai.Model) error { return s.rt.Model().Set(m) }

// SetThinkingLevel changes the reasoning effort (clamped to what the
// model supports) and records it in the session.
func (s *Session) SetThinkingLevel(l ai.ThinkingLevel) error { return s.rt.Model().SetThinking(l) }

// Compact summarises the older part of the conversation now.
func (s *Session) Compact(ctx context.Context, instructions string) (*compaction.Result, error) {
	return s.rt.Compactor().Compact(ctx, instructions)
}

// AbortCompaction stops a compaction in progress.
func (s *Session) AbortCompaction() { s.rt.Compactor().Abort() }

// SetAutoCompaction turns automatic compaction on or off for this
// session.
func (s *Session) SetAutoCompaction(on bool) { s.rt.Compactor().SetAuto(on) }

// Handoff asks the model for a handoff document and continues in a new
// session that starts with it.
func (s *Session) Handoff(ctx context.Context, instructions string) (*HandoffResult, error) {
	return s.rt.Compactor().Handoff(ctx, instructions)
}

// Tree lists the session's entries as the rows of a tree selector.
func (s *Session) Tree(q TreeQuery) []TreeRow { return s.rt.Tree().Rows(q) }

// SetLabel sets (or with "" clears) the label of entry id.
func (s *Session) SetLabel(id, label string) error { return s.rt.Tree().SetLabel(id, label) }

// Navigate moves the leaf to entry id of the same session file.
func (s *Session) Navigate(ctx context.Context, id string, opts NavigateOptions) (NavigateResult, error) {
	return s.rt.Tree().Navigate(ctx, id, opts)
}

// Branch starts a new session file from the user message entryID.
func (s *Session) Branch(ctx context.Context, entryID string) (BranchResult, error) {
	return s.rt.Tree().Branch(ctx, entryID)
}

// NewSession ends the current session and starts an empty one; parent,
// when set, is recorded as its parentSession.
func (s *Session) NewSession(ctx context.Context, parent string) (cancelled bool, err error) {
	return s.rt.Tree().New(ctx, parent)
}

// SwitchSession ends the current session and continues the session file
// at path.
func (s *Session) SwitchSession(ctx context.Context, path string) (cancelled bool, err error) {
	return s.rt.Tree().Switch(ctx, path)
}

// NewChild creates a child session (a subagent) sharing the session's
// configuration, models and credentials; the caller prompts and closes it.
func (s *Session) NewChild(ctx context.Context, o ChildOptions) (*Session, error) {
	rt, err := s.rt.NewChild(ctx, o)
	if err != nil {
		return nil, err
	}
	return &Session{rt: rt}, nil
}

// MCPStatus describes the session's MCP servers.
func (s *Session) MCPStatus() MCPStatus { return s.rt.Resources().MCPStatus() }

// SessionFile returns the session file's path ("" in memory).
func (s *Session) SessionFile() string { return s.rt.Store().File() }

// Err returns the session's latched persistence error, if any.
func (s *Session) Err() error { return s.rt.Err() }

// Close stops the session's work and closes its session file; it returns
// the first persistence error.
func (s *Session) Close() error { return s.rt.Close() }
