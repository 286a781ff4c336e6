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

	AutoCompactionEnabled bool        `json:"autoCompactionEnabled"`
	TodoPhases            []TodoPhase `json:"todoPhases"`
	SystemPrompt          string      `json:"systemPrompt"`
	// DumpTools lists the offered tools. Their JSON, the bulk of a State,
	// is encoded once per tool set (see MarshalJSON).
	DumpTools []ToolSummary `json:"dumpTools"`

	dumpJSON   []byte // cached encoding of DumpTools (nil: encode it)
	promptJSON []byte // cached encoding of SystemPrompt (nil: encode it)
}

// MarshalJSON encodes the state, splicing in the cached encodings of the
// system prompt and the tool list: RPC hosts poll get_state, and those two
// are most of its bytes.
func (st State) MarshalJSON() ([]byte, error) {
	type plain State
	p := plain(st)
	p.SystemPrompt, p.DumpTools = "", nil
	head, err := json.Marshal(struct {
		plain
		SystemPrompt *string       `json:"systemPrompt,omitempty"`
		DumpTools    []ToolSummary `json:"dumpTools,omitempty"`
	}{plain: p})
	if err != nil {
		return nil, err
	}
	prompt, dump := st.promptJSON, st.dumpJSON
	if prompt == nil {
		if prompt, err = json.Marshal(st.SystemPrompt); err != nil {
			return nil, err
		}
	}
	if dump == nil {
		if st.DumpTools == nil {
			st.DumpTools = []ToolSummary{}
		}
		if dump, err = json.Marshal(st.DumpTools); err != nil {
			return nil, err
		}
	}
	out := make([]byte, 0, len(head)+len(prompt)+len(dump)+32)
	out = append(out, head[:len(head)-1]...)
	out = append(out, `,"systemPrompt":`...)
	out = append(out, prompt...)
	out = append(out, `,"dumpTools":`...)
	out = append(out, dump...)
	return append(out, '}'), nil
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
	modes := s.agent.Modes()
	qs, qf := s.agent.Queued()
	next := s.gate.keptCount()
	st := State{
		Model:              s.agent.Model(),
		ThinkingLevel:      s.agent.Thinking(),
		IsStreaming:        s.agent.IsRunning(),
		IsCompacting:       s.compactor.IsCompacting(),
		SteeringMode:       string(modes.Steering),
		FollowUpMode:       string(modes.FollowUp),
		InterruptMode:      string(modes.Interrupt),
		SessionFile:        store.File(),
		SessionID:          store.SessionID(),
		SessionName:        store.Name(),
		AutoRetryEnabled:   s.agent.Retry().Enabled,
		MessageCount:       len(s.agent.Messages()),
		QueuedMessageCount: len(qs) + len(qf) + next,

		AutoCompactionEnabled: s.compactor.Auto(),
		TodoPhases:            s.tools.TodoPhases(),
	}
	st.SystemPrompt, st.promptJSON, st.DumpTools, st.dumpJSON = s.stateCache()
	return st
}

// stateCache returns the system prompt and the tool list with their JSON
// encodings, re-encoded only when they changed.
func (s *Session) stateCache() (string, []byte, []ToolSummary, []byte) {
	prompt := s.agent.SystemPrompt()
	tools := s.agent.Tools()
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &s.stateJSON
	if c.promptJSON == nil || c.prompt != prompt {
		c.prompt = prompt
		c.promptJSON, _ = json.Marshal(prompt)
	}
	if c.dumpJSON == nil || !sameTools(c.tools, tools) {
		c.tools = tools
		c.dump = toolSummaries(tools)
		c.dumpJSON, _ = json.Marshal(c.dump)
	}
	return c.prompt, c.promptJSON, c.dump, c.dumpJSON
}

// stateJSON caches parts of State's encoding.
type stateJSON struct {
	prompt     string
	promptJSON []byte
	tools      []tool.Tool
	dump       []ToolSummary
	dumpJSON   []byte
}

func sameTools(a, b []tool.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
