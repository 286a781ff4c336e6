package agentsession

import (
	"github.com/gopi-agent/gopi/core/ai"
)

// State is a snapshot of the session for front ends (RPC get_state).
type State struct {
	Model              *ai.Model        `json:"model"`
	ThinkingLevel      ai.ThinkingLevel `json:"thinkingLevel"`
	IsStreaming        bool             `json:"isStreaming"`
	IsCompacting       bool             `json:"isCompacting"`
	SteeringMode       string           `json:"steeringMode"`
	FollowUpMode       string           `json:"followUpMode"`
	InterruptMode      string           `json:"interruptMode"`
	SessionFile        string           `json:"sessionFile,omitempty"`
	SessionID          string           `json:"sessionId"`
	SessionName        string           `json:"sessionName,omitempty"`
	AutoRetryEnabled   bool             `json:"autoRetryEnabled"`
	MessageCount       int              `json:"messageCount"`
	QueuedMessageCount int              `json:"queuedMessageCount"`
}

// State returns a snapshot of the session.
func (s *Session) State() State {
	store := s.Store()
	steer, follow, interrupt := s.agent.Modes()
	qs, qf := s.agent.QueuedCount()
	s.mu.Lock()
	next := len(s.nextTurn)
	s.mu.Unlock()
	return State{
		Model:              s.agent.Model(),
		ThinkingLevel:      s.agent.Thinking(),
		IsStreaming:        s.agent.IsRunning(),
		SteeringMode:       string(steer),
		FollowUpMode:       string(follow),
		InterruptMode:      string(interrupt),
		SessionFile:        store.File(),
		SessionID:          store.SessionID(),
		SessionName:        store.Name(),
		AutoRetryEnabled:   s.agent.Retry().Enabled,
		MessageCount:       len(s.agent.Messages()),
		QueuedMessageCount: qs + qf + next,
	}
}

// SessionFile returns the session file's path ("" in memory).
func (s *Session) SessionFile() string { return s.Store().File() }

// SessionID returns the session's id.
func (s *Session) SessionID() string { return s.Store().SessionID() }

// SetName names the session (the header title, source "user").
func (s *Session) SetName(name string) error {
	if name == "" {
		return errEmptyName
	}
	_, err := s.Store().SetName(name, "user")
	return err
}
