package agentsession

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"

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

// startMemoryAuto starts the backend's automatic recall, retain and
// mental models for a top-level session's own bank.
func (s *Session) startMemoryAuto() {
	if s.svc.Memory != nil && s.opts.sharedMemory == nil {
		s.memAuto = hindsight.NewAuto(s.svc.Memory)
	}
}

// Memory returns the hindsight backend's automatic work (recall before
// the first run, retain every few turns, mental models) for /memory; nil
// without memory.backend=hindsight and in a subagent.
func (c *Conversation) Memory() *hindsight.Auto { return c.s.memAuto }

// memoryBeforeRun lets the backend recall for the prompt before the run
// starts (bounded: see hindsight.Auto.BeforeRun).
func (s *Session) memoryBeforeRun(ctx context.Context, text string) {
	if s.memAuto != nil {
		s.memAuto.BeforeRun(ctx, text, MemoryMessages(s.agent.Messages()))
	}
}

// memoryRunEnd hands the finished run to the backend.
func (s *Session) memoryRunEnd() {
	if s.memAuto != nil {
		s.memAuto.AfterRun(MemoryMessages(s.agent.Messages()))
	}
}

// memoryInstructions adds the backend's text to a request's system
// prompt.
func (s *Session) memoryInstructions(req *ai.Request) {
	if s.memAuto == nil {
		return
	}
	if req.SystemPrompt != "" {
		req.SystemPrompt += "\n\n"
	}
	req.SystemPrompt += s.memAuto.Instructions()
}

// memoryClose stops the backend's background work (bounded, as the
// retain queue's last write).
func (s *Session) memoryClose() {
	if s.memAuto != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.memAuto.Close(ctx)
	}
}

// MemoryMessages is the conversation as the memory backend reads it: the
// text of user and assistant messages, in order, without tool calls,
// tool results, thinking or the session's own messages.
func MemoryMessages(msgs []ai.Message) []hindsight.Message {
	var out []hindsight.Message
	for _, m := range msgs {
		var role, text string
		switch m := m.(type) {
		case *ai.UserMessage:
			var parts []string
			for _, b := range m.Content {
				if t, ok := b.(*ai.TextContent); ok {
					parts = append(parts, t.Text)
				}
			}
			role, text = "user", strings.Join(parts, "\n")
		case *ai.AssistantMessage:
			var parts []string
			for _, b := range m.Content {
				if t, ok := b.(*ai.TextContent); ok && t.Text != "" {
					parts = append(parts, t.Text)
				}
			}
			role, text = "assistant", strings.Join(parts, "\n")
		}
		if text != "" {
			out = append(out, hindsight.Message{Role: role, Content: text})
		}
	}
	return out
}
