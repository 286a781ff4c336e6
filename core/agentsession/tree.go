package agentsession

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
)

// Moving in the session tree (/tree): the leaf goes to another entry of the
// same file and the conversation continues from there. The branch that is
// left stays in the file; on request it is summarised first (see package
// compaction's branch summaries) and the summary is stored at the new
// position as a branch_summary entry.

// Tree is the part of a session that works on the session file and its
// tree: /tree moves (Navigate), labels and the name, /branch, a new
// session, a switch to another file, and reloading the conversation from
// the current branch. It owns the branch summary in progress; the
// turn, the store and its replacement and the hook points it reaches
// through treeHost, and the model through the ModelState part.
type Tree struct {
	host       treeHost
	turn       *Turn          // the tree operations take the turn
	agent      *agent.Agent   // the loop: its model writes branch summaries
	model      *ModelState    // checks credentials before a summary
	cfg        *config.Config // branchSummary.* settings, session locations
	cwd        string         // the working directory new sessions are for
	sessionDir string         // --session-dir
	summary    opSlot         // the branch summary of a Navigate in progress
}

// treeHost is what the tree operations use of the rest of the session:
// the turn, the current store and its replacement, summaries, and the
// session hook points.
type treeHost interface {
	Store() *session.Manager
	newStoreLike(cur *session.Manager, parent string) (*session.Manager, error)
	replaceStore(store *session.Manager, restore bool) error
	reloadFromStore() error
	counter() *compaction.Counter
	summarizer(model *ai.Model) compaction.Summarizer
	beforeTreeHooks(ctx context.Context, ev *compaction.BeforeTreeEvent) (cancel bool, supplied *compaction.TreeSummary)
	treeHooks(ctx context.Context, ev *compaction.TreeEvent)
	beforeBranchHooks(ctx context.Context, ev *agent.BeforeBranchEvent) (cancel, skip bool)
	branchHooks(ctx context.Context, ev *agent.BranchEvent)
	beforeSwitchHooks(ctx context.Context, ev *agent.BeforeSwitchEvent) (cancel bool)
	switchHooks(ctx context.Context, ev *agent.SwitchEvent)
	moveStore(dir string, locs session.Locations) error
}

// NavigateOptions refine Navigate.
type NavigateOptions struct {
	// Summarize asks for a summary of the branch the move leaves, written
	// by the current model (or supplied by a session_before_tree hook) and
	// stored at the new position.
	Summarize bool
	// CustomInstructions replace the default summary instructions.
	CustomInstructions string
}

// NavigateResult says what Navigate did.
type NavigateResult struct {
	// EditorText is the picked user or custom message's text: the leaf
	// went to its parent, and a front end offers the text for editing.
	EditorText string `json:"editorText,omitempty"`
	// Cancelled: a hook cancelled the move, or it was aborted while the
	// summary was written; nothing changed.
	Cancelled bool `json:"cancelled"`
	// Aborted: the summary was aborted (Cancelled is set too).
	Aborted bool `json:"aborted,omitempty"`
	// SummaryEntry is the branch_summary entry written, nil when none.
	SummaryEntry *session.Entry `json:"summaryEntry,omitempty"`
}

// ErrNoSummaryModel: a summary was asked for without a model.
var ErrNoSummaryModel = errors.New("cannot summarise the branch: no model is selected (pick one, or navigate without a summary)")

// Navigate moves the leaf to entry targetID of the current session file
// (/tree). Picking a user message or a custom message puts the leaf on its
// parent (before the message: the first one of a session leaves the leaf
// null) and returns the message's text for the editor; picking any other
// entry puts the leaf on it. Picking the leaf changes nothing. With
// opts.Summarize, the entries the move leaves (from the old leaf back to
// where the two paths meet) are summarised first and the summary appended
// at the new position. The session_before_tree hooks may cancel the move
// or supply the summary; session_tree hooks see the result.
//
// It fails with ErrWorking while a run streams (the work after a run is
// waited for), with session.ErrNotFound for an unknown id, and with the
// summary's error when it cannot be written; a failed or aborted summary
// (AbortSummary, Session.Abort, ctx) leaves the session as it was.
func (t *Tree) Navigate(ctx context.Context, targetID string, opts NavigateOptions) (NavigateResult, error) {
	s := t.host
	if err := t.turn.take(ctx); err != nil {
		return NavigateResult{}, err
	}
	defer t.turn.release()
	store := s.Store()
	oldLeaf := store.LeafID()
	if targetID == oldLeaf && targetID != "" {
		return NavigateResult{}, nil
	}
	target := store.Entry(targetID)
	if target == nil {
		return NavigateResult{}, fmt.Errorf("cannot navigate to entry %q: %w in this session", targetID, session.ErrNotFound)
	}
	model := t.agent.Model()
	if opts.Summarize && model == nil {
		return NavigateResult{}, ErrNoSummaryModel
	}

	entries, common := compaction.CollectBranch(store.Path(""), store.Path(targetID))
	if oldLeaf == "" {
		entries, common = nil, ""
	}
	prep := &compaction.TreePreparation{TargetID: targetID, OldLeafID: oldLeaf, CommonAncestorID: common,
		EntriesToSummarize: entries, UserWantsSummary: opts.Summarize}

	tctx, done := t.summary.start(ctx)
	defer done()

	cancelled, supplied := s.beforeTreeHooks(tctx, &compaction.BeforeTreeEvent{Preparation: prep})
	if cancelled {
		return NavigateResult{Cancelled: true}, nil
	}
	if tctx.Err() != nil {
		return NavigateResult{Cancelled: true, Aborted: true}, nil
	}
	var summary string
	var details any
	fromExt := false
	switch {
	case opts.Summarize && supplied != nil:
		summary, details, fromExt = supplied.Summary, supplied.Details, true
	case opts.Summarize && len(entries) > 0:
		if err := t.model.check(); err != nil {
			return NavigateResult{}, err
		}
		set := compaction.BranchSettings{ReserveTokens: t.cfg.Settings.Int("branchSummary.reserveTokens")}
		bp := compaction.PrepareBranch(entries, set.Budget(model.ContextWindow), s.counter())
		res, err := compaction.GenerateBranchSummary(tctx, bp, s.summarizer(model), compaction.BranchOptions{CustomInstructions: opts.CustomInstructions})
		if tctx.Err() != nil {
			return NavigateResult{Cancelled: true, Aborted: true}, nil
		}
		if err != nil {
			return NavigateResult{}, err
		}
		summary, details = res.Summary, res.Details
	}

	newLeaf := targetID
	var out NavigateResult
	if isUserEntry(target) {
		newLeaf, out.EditorText = target.ParentID, entryText(target)
	}
	var err error
	switch {
	case summary != "":
		var id string
		id, err = store.BranchWithSummary(newLeaf, summary, details, fromExt)
		out.SummaryEntry = store.Entry(id)
		if id == "" {
			return NavigateResult{}, err
		}
	default: // "" moves before the first entry
		if err := store.Branch(newLeaf); err != nil {
			return NavigateResult{}, err
		}
	}
	// The move is made (a write failure of the summary is latched and
	// reported below): the agent continues from the new leaf either way.
	if rerr := s.reloadFromStore(); rerr != nil && err == nil {
		err = rerr
	}
	s.treeHooks(ctx, &compaction.TreeEvent{NewLeafID: store.LeafID(), OldLeafID: oldLeaf, SummaryEntry: out.SummaryEntry, FromExtension: fromExt && out.SummaryEntry != nil})
	return out, err
}

// AbortSummary stops the branch summary being written for a Navigate;
// the move does not happen.
func (t *Tree) AbortSummary() { t.summary.abort() }

// SummarySettings returns the branchSummary.* settings: front ends offer
// to summarise the branch a /tree move leaves when Enabled.
func (t *Tree) SummarySettings() compaction.BranchSettings {
	return compaction.BranchSettings{Enabled: t.cfg.Settings.Bool("branchSummary.enabled"), ReserveTokens: t.cfg.Settings.Int("branchSummary.reserveTokens")}
}

// SetLabel sets the label of entry id (a bookmark shown in the tree), or
// clears it with "". The label entry is appended at the leaf, as omp does.
func (t *Tree) SetLabel(id, label string) error {
	if t.turn.isClosed() {
		return errClosed
	}
	if _, err := t.host.Store().Record(session.Label{TargetID: id, Label: strings.TrimSpace(label)}); err != nil {
		if errors.Is(err, session.ErrNotFound) {
			return fmt.Errorf("cannot label entry %q: %w in this session", id, session.ErrNotFound)
		}
		return err
	}
	return nil
}

// SetName names the session (the header title, source "user").
func (t *Tree) SetName(name string) error {
	if name == "" {
		return errEmptyName
	}
	_, err := t.host.Store().SetName(name, "user")
	return err
}

// RebuildContext reloads the conversation the model sees from the
// session's current branch: an extension calls it after saving entries
// that its context handler reads. It fails while the agent runs.
func (t *Tree) RebuildContext() error {
	if err := t.agent.SetMessages(t.host.Store().BuildContext().Messages); err != nil {
		if errors.Is(err, agent.ErrBusy) {
			return errors.New("rebuild context: the agent is running; call it from a command or once the run ends")
		}
		return fmt.Errorf("rebuild context: %w", err)
	}
	return nil
}

// Rows returns the session's tree view: its entries as the rows a tree
// selector shows, filtered and searched as q says (see session.TreeRows).
func (t *Tree) Rows(q session.TreeQuery) []session.TreeRow { return t.host.Store().TreeRows(q) }

// Locations returns where sessions are stored and looked up: gopi's agent
// directory first, omp's second, or the --session-dir override.
func (t *Tree) Locations() session.Locations { return Locations(t.cfg, t.sessionDir) }

// entryIsUser reports whether e is a user message entry (the ones /branch
// can start from).
func entryIsUser(e *session.Entry) bool {
	_, ok := e.Message.(*ai.UserMessage)
	return ok && e.Type == session.TypeMessage
}

// BranchPoint is a user message the session can branch before.
type BranchPoint struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// BranchPoints lists the user messages of the session, oldest first (RPC
// get_branch_messages).
func (t *Tree) BranchPoints() []BranchPoint {
	var out []BranchPoint
	for _, e := range t.host.Store().Entries() {
		if e.Type != session.TypeMessage {
			continue
		}
		if _, ok := e.Message.(*ai.UserMessage); !ok {
			continue
		}
		if t := entryText(e); t != "" {
			out = append(out, BranchPoint{EntryID: e.ID, Text: t})
		}
	}
	return out
}
