package agentsession

import (
	"encoding/json"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
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

	AutoCompactionEnabled bool          `json:"autoCompactionEnabled"`
	TodoPhases            []TodoPhase   `json:"todoPhases"`
	SystemPrompt          string        `json:"systemPrompt"`
	DumpTools             []ToolSummary `json:"dumpTools"`
}

// ToolSummary describes an offered tool in State.
type ToolSummary struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
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

		AutoCompactionEnabled: s.AutoCompaction(),
		TodoPhases:            s.TodoPhases(),
		SystemPrompt:          s.agent.SystemPrompt(),
		DumpTools:             toolSummaries(s.agent.Tools()),
	}
}

func toolSummaries(tools []tool.Tool) []ToolSummary {
	out := make([]ToolSummary, 0, len(tools))
	for _, t := range tools {
		d := t.Definition()
		params := json.RawMessage(`{"type":"object","properties":{}}`)
		if d.Parameters != nil {
			if data, err := json.Marshal(d.Parameters); err == nil {
				params = data
			}
		}
		out = append(out, ToolSummary{Name: d.Name, Description: d.Description, Parameters: params})
	}
	return out
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
