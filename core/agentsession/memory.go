package agentsession

import (
	"encoding/json"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/hindsight"
)

// MemoryWriteFailed reports memories the hindsight backend could not
// write in the background ({type:"memory_write_failed",error}); the
// model is not told.
type MemoryWriteFailed struct {
	Error string `json:"error"` // what went wrong and what to check
}

// EventType implements agent.Event.
func (MemoryWriteFailed) EventType() string { return "memory_write_failed" }

// MarshalJSON writes the event with its type.
func (e MemoryWriteFailed) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type  string `json:"type"`
		Error string `json:"error"`
	}{e.EventType(), e.Error})
}

// startMemory gives the tools the hindsight bank with
// memory.backend=hindsight: the parent's for a subagent, else one of its
// own (closed with the services).
func (s *Session) startMemory(shared *hindsight.Bank, sessionID string) {
	if shared != nil {
		s.svc.SetMemory(shared, false)
		return
	}
	cfg := config.HindsightConfig(s.cfg, s.opts.Cwd)
	if !cfg.Enabled {
		return
	}
	s.svc.SetMemory(hindsight.NewBank(cfg, nil, sessionID, func(err error) { s.emit(MemoryWriteFailed{Error: err.Error()}) }), true)
}
