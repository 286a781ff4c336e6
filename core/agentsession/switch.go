package agentsession

import (
	"errors"
	"fmt"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// NewSession closes the current session and starts an empty one (with the
// same model and settings). parent, when set, is recorded as the new
// session's parentSession.
func (s *Session) NewSession(parent string) error {
	if s.IsBusy() {
		return agent.ErrBusy
	}
	store, err := s.newStore(parent)
	if err != nil {
		return err
	}
	return s.replaceStore(store)
}

// SwitchSession closes the current session and continues the session file
// at path, restoring its conversation, model and thinking level.
func (s *Session) SwitchSession(path string) error {
	if s.IsBusy() {
		return agent.ErrBusy
	}
	store, err := session.Open(path, StoreOptions(s.cfg, s.opts.Cwd, s.opts.SessionDir))
	if err != nil {
		return err
	}
	return s.replaceStore(store)
}

// Branch starts a new session file holding the path from the root to the
// parent of entryID, the way omp's /branch does: the conversation
// continues from just before that entry. It returns the entry's text when
// it is a user message (for the editor to offer it again).
func (s *Session) Branch(entryID string) (text string, err error) {
	if s.IsBusy() {
		return "", agent.ErrBusy
	}
	cur := s.Store()
	e := cur.Entry(entryID)
	if e == nil {
		return "", fmt.Errorf("no entry %q in this session", entryID)
	}
	text = entryText(e)
	if s.opts.NoSession {
		if err := cur.Branch(e.ParentID); err != nil && e.ParentID != "" {
			return "", err
		}
		if e.ParentID == "" {
			cur.ResetLeaf()
		}
		return text, s.reloadFromStore()
	}
	var next *session.Manager
	if e.ParentID == "" {
		next, err = s.newStore(cur.File())
	} else {
		next, err = cur.Fork(e.ParentID, StoreOptions(s.cfg, s.opts.Cwd, s.opts.SessionDir))
	}
	if err != nil {
		return "", err
	}
	return text, s.replaceStore(next)
}

// Navigate moves the session's leaf to entryID within the same file (the
// /tree move): the conversation continues from that entry. Picking a user
// message moves to its parent and returns its text for the editor.
func (s *Session) Navigate(entryID string) (text string, err error) {
	if s.IsBusy() {
		return "", agent.ErrBusy
	}
	store := s.Store()
	e := store.Entry(entryID)
	if e == nil {
		return "", fmt.Errorf("no entry %q in this session", entryID)
	}
	target := entryID
	if isUserEntry(e) {
		text, target = entryText(e), e.ParentID
	}
	if target == "" {
		store.ResetLeaf()
	} else if err := store.Branch(target); err != nil {
		return "", err
	}
	return text, s.reloadFromStore()
}

// replaceStore makes store the session's, closing the old one.
func (s *Session) replaceStore(store *session.Manager) error {
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
	s.recorded.model, s.recorded.thinking = "", ""
	s.nextTurn = nil
	s.titleOnce = false
	s.mu.Unlock()
	s.agent.ClearQueues()
	if job.Enabled(s.toolEnv) {
		job.For(s.toolEnv).Forget() // the old conversation's jobs end with it
	}
	closeErr := old.Close()
	s.toolEnv.Artifacts = store.Artifacts()
	s.agent.SetArtifacts(s.toolEnv.Artifacts)
	if err := s.reloadFromStore(); err != nil {
		return err
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
	s.mu.Lock()
	if len(sctx.Messages) > 0 || sctx.Models["default"] != "" {
		s.recorded.model, s.recorded.thinking = sctx.Models["default"], sctx.ThinkingLevel
	}
	s.mu.Unlock()
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

func isUserEntry(e *session.Entry) bool {
	if e.Type == session.TypeCustomMessage {
		return true
	}
	if e.Type != session.TypeMessage {
		return false
	}
	_, ok := e.Message.(*ai.UserMessage)
	return ok
}

// entryText returns the text of a user or custom message entry.
func entryText(e *session.Entry) string {
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

var errNoSessionFile = errors.New("this session is not stored in a file (--no-session)")
