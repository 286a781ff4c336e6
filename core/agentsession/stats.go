package agentsession

import (
	"github.com/gopi-agent/gopi/core/ai"
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
	st := Stats{SessionFile: s.SessionFile(), SessionID: s.Store().SessionID()}
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
