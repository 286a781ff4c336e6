package agentsession

import (
	"errors"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/session"
)

// Stats counts a session's messages, tokens and cost (RPC
// get_session_stats).
type Stats struct {
	SessionFile       string      `json:"sessionFile,omitempty"`
	SessionID         string      `json:"sessionId"`
	UserMessages      int         `json:"userMessages"`
	AssistantMessages int         `json:"assistantMessages"`
	ToolCalls         int         `json:"toolCalls"`
	ToolResults       int         `json:"toolResults"`
	TotalMessages     int         `json:"totalMessages"`
	Tokens            StatsTokens `json:"tokens"`
	PremiumRequests   int         `json:"premiumRequests"`
	Cost              float64     `json:"cost"`
}

// StatsTokens are the token totals of Stats.
type StatsTokens struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Total      int `json:"total"`
}

// Stats counts the conversation the model sees.
func (s *Session) Stats() Stats {
	st := Stats{SessionFile: s.SessionFile(), SessionID: s.SessionID()}
	msgs := s.agent.Messages()
	st.TotalMessages = len(msgs)
	for _, m := range msgs {
		switch m := m.(type) {
		case *ai.UserMessage:
			st.UserMessages++
		case *ai.AssistantMessage:
			st.AssistantMessages++
			st.ToolCalls += len(m.ToolCalls())
			u := m.Usage
			st.Tokens.Input += u.Input
			st.Tokens.Output += u.Output
			st.Tokens.CacheRead += u.CacheRead
			st.Tokens.CacheWrite += u.CacheWrite
			st.Cost += u.Cost.Total
		case *ai.ToolResultMessage:
			st.ToolResults++
		}
	}
	st.Tokens.Total = st.Tokens.Input + st.Tokens.Output + st.Tokens.CacheRead + st.Tokens.CacheWrite
	return st
}

// BranchPoint is a user message the session can branch before.
type BranchPoint struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// BranchPoints lists the user messages of the session, oldest first (RPC
// get_branch_messages).
func (s *Session) BranchPoints() []BranchPoint {
	var out []BranchPoint
	for _, e := range s.Store().Entries() {
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

// AvailableModels lists the models that have credentials.
func (s *Session) AvailableModels() []*ai.Model {
	var out []*ai.Model
	for _, m := range s.reg.Models() {
		if s.reg.HasAuth(m) {
			out = append(out, m)
		}
	}
	return out
}

// FindModel returns the model provider/id among all known models.
func (s *Session) FindModel(provider, id string) (*ai.Model, error) {
	for _, m := range s.reg.Models() {
		if m.Provider == provider && m.ID == id {
			return m, nil
		}
	}
	return nil, fmt.Errorf("Model not found: %s/%s", provider, id)
}

// CycleModel switches to the next model of Options.CycleModels, else of
// the models with credentials (in catalog order), and returns it; nil
// when there is no other.
func (s *Session) CycleModel() (*ai.Model, error) {
	avail := s.opts.CycleModels
	if len(avail) == 0 {
		avail = s.AvailableModels()
	}
	cur := s.agent.Model()
	if len(avail) == 0 || (len(avail) == 1 && cur != nil && avail[0] == cur) {
		return nil, nil
	}
	next := avail[0]
	for i, m := range avail {
		if cur != nil && m.Provider == cur.Provider && m.ID == cur.ID {
			next = avail[(i+1)%len(avail)]
			break
		}
	}
	return next, s.SetModel(next)
}

// CycleThinkingLevel moves to the next thinking level the model supports
// and returns it; "" when the model does not reason.
func (s *Session) CycleThinkingLevel() (ai.ThinkingLevel, error) {
	m := s.agent.Model()
	if m == nil {
		return "", errors.New("no model is selected")
	}
	if !m.Reasoning {
		return "", nil
	}
	cur := s.agent.Thinking()
	levels := ai.ThinkingLevels
	next := levels[0]
	for i, l := range levels {
		if l == cur {
			next = levels[(i+1)%len(levels)]
			break
		}
	}
	if clamped := models.ClampThinking(m, next); clamped != next {
		next = ai.ThinkingOff
	}
	return next, s.SetThinkingLevel(next)
}
