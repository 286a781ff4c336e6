package agentsession

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// Changing the session file: a new session, another file, or /branch (a
// new file holding the conversation up to an earlier user message). Each
// fails with ErrWorking while a run streams (abort it first) and waits
// for the work after a run; the previous session's file is closed, its
// queued messages and background jobs dropped.

// New ends the current session and starts an empty one with the same
// model and settings; parent, when set, is recorded as the new session's
// parentSession. A session kept in memory is followed by one in memory. A
// session_before_switch hook (reason "new") may cancel it: cancelled says
// so and nothing changed.
func (t *Tree) New(ctx context.Context, parent string) (cancelled bool, err error) {
	s := t.host
	if err := t.turn.take(ctx); err != nil {
		return false, err
	}
	defer t.turn.release()
	if s.beforeSwitchHooks(ctx, &agent.BeforeSwitchEvent{Reason: agent.SwitchNew}) {
		return true, nil
	}
	prev := s.Store().File()
	store, err := s.newStoreLike(s.Store(), parent)
	if err != nil {
		return false, err
	}
	if err := s.replaceStore(store, true); err != nil {
		return false, err
	}
	s.switchHooks(ctx, &agent.SwitchEvent{Reason: agent.SwitchNew, PreviousSessionFile: prev})
	return false, nil
}

// Switch ends the current session and continues the session file at path
// (gopi's or omp's), restoring its conversation, model and thinking level.
// The file must exist; switching to the current file changes nothing. A
// session_before_switch hook (reason "resume") may cancel it: cancelled
// says so and nothing changed.
func (t *Tree) Switch(ctx context.Context, path string) (cancelled bool, err error) {
	s := t.host
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, fmt.Errorf("switch session: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
		return false, fmt.Errorf("cannot switch to %s: there is no session file there", path)
	}
	if err := t.turn.take(ctx); err != nil {
		return false, err
	}
	defer t.turn.release()
	prev := s.Store().File()
	if prev != "" && sameFile(prev, abs) {
		return false, nil
	}
	if s.beforeSwitchHooks(ctx, &agent.BeforeSwitchEvent{Reason: agent.SwitchResume, TargetSessionFile: abs}) {
		return true, nil
	}
	store, err := session.Open(abs, StoreOptions(t.cfg, t.cwd, t.sessionDir))
	if err != nil {
		return false, err
	}
	if err := s.replaceStore(store, true); err != nil {
		return false, err
	}
	s.switchHooks(ctx, &agent.SwitchEvent{Reason: agent.SwitchResume, PreviousSessionFile: prev})
	return false, nil
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// BranchResult says what Branch did.
type BranchResult struct {
	Text      string `json:"text"`      // the user message's text, for the editor
	Cancelled bool   `json:"cancelled"` // a hook cancelled the branch; nothing changed
}

// Branch starts a new session file from the user message entryID (/branch,
// RPC branch): the new file holds the conversation up to just before that
// message (labels carried over) with the current file as its
// parentSession, and the message's text is returned for the editor to
// offer again. Branching from the first message starts an empty session.
// A session kept in memory branches in memory. session_before_branch
// hooks may cancel the branch or keep the conversation the model sees
// (SkipConversationRestore); session_branch hooks see the result.
//
// It fails with ErrWorking while a run streams, with session.ErrNotFound
// for an unknown id, and for an entry that is not a user message.
func (t *Tree) Branch(ctx context.Context, entryID string) (BranchResult, error) {
	s := t.host
	if err := t.turn.take(ctx); err != nil {
		return BranchResult{}, err
	}
	defer t.turn.release()
	cur := s.Store()
	e := cur.Entry(entryID)
	if e == nil {
		return BranchResult{}, fmt.Errorf("cannot branch from entry %q: %w in this session", entryID, session.ErrNotFound)
	}
	if !entryIsUser(e) {
		return BranchResult{}, fmt.Errorf("cannot branch from entry %q: it is not a user message (get_branch_messages lists those)", entryID)
	}
	res := BranchResult{Text: entryText(e)}
	cancel, skip := s.beforeBranchHooks(ctx, &agent.BeforeBranchEvent{EntryID: entryID})
	if cancel {
		res.Cancelled = true
		return res, nil
	}
	prev := cur.File()
	var next *session.Manager
	var err error
	switch {
	case e.ParentID == "":
		next, err = s.newStoreLike(cur, prev)
	case cur.File() == "":
		next, err = cur.Fork(e.ParentID, session.Options{Cwd: t.cwd})
	default:
		next, err = cur.Fork(e.ParentID, StoreOptions(t.cfg, t.cwd, t.sessionDir))
	}
	if err != nil {
		return BranchResult{}, err
	}
	if err := s.replaceStore(next, !skip); err != nil {
		return BranchResult{}, err
	}
	s.branchHooks(ctx, &agent.BranchEvent{PreviousSessionFile: prev})
	return res, nil
}

// newStoreLike creates the store that follows cur: in memory when cur is,
// else a new file (see newStore).
func (s *Session) newStoreLike(cur *session.Manager, parent string) (*session.Manager, error) {
	if cur.File() == "" {
		return session.InMemory(s.opts.Cwd), nil
	}
	return s.newStore(parent)
}

// replaceStore makes store the session's, closing the old one; with
// restore the agent's conversation becomes the new store's, otherwise it
// is kept as it is.
func (s *Session) replaceStore(store *session.Manager, restore bool) error {
	s.mu.Lock()
	oldLock := s.runLock
	s.runLock = nil
	s.mu.Unlock()
	if err := s.lockStore(store); err != nil {
		s.mu.Lock()
		s.runLock = oldLock
		s.mu.Unlock()
		store.Close()
		return err
	}
	oldLock.Release()
	s.mu.Lock()
	old := s.store
	s.store = store
	s.titleOnce = false
	s.mu.Unlock()
	s.gate.takeNext()                             // messages kept for the next prompt belong to the old conversation
	s.model.setRecorded(new(string), new(string)) // nothing is recorded in the new file yet
	s.agent.ClearQueues()
	s.perm.Forget() // "always" answers hold for one session
	if job.Enabled(s.toolEnv) {
		s.svc.Jobs.Forget() // the old conversation's jobs end with it
	}
	closeErr := old.Close()
	removeMemoryScratch(s.toolEnv)
	s.toolEnv.Artifacts = store.Artifacts()
	s.toolEnv.LocalFallback = localFallback(store)
	s.svc.RenewEval(s.toolEnv) // kernels belong to one session file, as in omp
	s.plan.resetReference()
	if s.memAuto != nil {
		s.memAuto.NewSession(store.SessionID())
	}
	s.agent.SetArtifacts(s.toolEnv.Artifacts)
	if restore {
		if err := s.reloadFromStore(); err != nil {
			return err
		}
	} else {
		s.restoreTodos(store)
	}
	if closeErr != nil {
		return fmt.Errorf("closing the previous session: %w", closeErr)
	}
	return nil
}

// reloadFromStore loads the store's context into the agent: messages,
// and the model and thinking level its path records.
func (s *Session) reloadFromStore() error {
	store := s.Store()
	sctx := store.BuildContext()
	if err := s.agent.SetMessages(sctx.Messages); err != nil {
		return err
	}
	s.restoreTodos(store)
	s.res.restoreTTSR(sctx.InjectedTTSRRules)
	if s.tools.disc.on() {
		s.tools.disc.restore(sctx.SelectedMCPToolNames)
		if err := s.tools.rebuild(); err != nil {
			return err
		}
	}
	// A checkpoint belongs to the branch it was made on.
	s.svc.Checkpoint.Clear()
	s.model.restoreTier(sctx.ServiceTier, s.cfg.Settings.String("serviceTier"))
	model, thinking := "", "" // nothing recorded on a new root: the next prompt records them
	if len(sctx.Messages) > 0 || sctx.Models["default"] != "" {
		model, thinking = sctx.Models["default"], sctx.ThinkingLevel
	}
	s.model.setRecorded(&model, &thinking)
	if ref := sctx.Models["default"]; ref != "" {
		if m, err := s.reg.Find(ref); err == nil && s.reg.HasAuth(m) {
			s.agent.SetModel(m)
		}
	}
	if l, ok := ai.ParseThinkingLevel(sctx.ThinkingLevel); ok && len(sctx.Messages) > 0 {
		if m := s.agent.Model(); m != nil {
			l = models.ClampThinking(m, l)
		}
		s.agent.SetThinking(l)
	}
	return nil
}

// isUserEntry reports whether e is a user message or a custom message (a
// custom_message entry, or a message entry holding one): picking one in
// the tree puts the leaf before it.
func isUserEntry(e *session.Entry) bool {
	if _, ok := e.Message.(*message.Custom); ok {
		return true
	}
	return e.Type == session.TypeCustomMessage || entryIsUser(e)
}

// entryText returns the text of a user message or custom message entry.
func entryText(e *session.Entry) string {
	if e.CustomMessage != nil {
		return e.CustomMessage.Content.Text()
	}
	switch m := e.Message.(type) {
	case *ai.UserMessage:
		var out string
		for _, b := range m.Content {
			if t, ok := b.(*ai.TextContent); ok {
				out += t.Text
			}
		}
		return out
	case *message.Custom:
		return m.Content.Text()
	}
	return ""
}
