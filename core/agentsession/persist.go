package agentsession

import (
	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// onAgentEvent stores every completed message and forwards the event to
// the session's subscribers.
func (s *Session) onAgentEvent(ev agent.Event) {
	// Errors are latched by the store; Prompt and Err report them.
	switch e := ev.(type) {
	case agent.MessageEnd:
		if am, ok := e.Message.(*ai.AssistantMessage); ok && !s.storeStopped(am) {
			break
		}
		_, _ = s.Store().AppendMessage(e.Message)
		if c, ok := e.Message.(*message.Custom); ok && c.CustomType == CustomTypeTTSR {
			s.onTTSRMessage(c)
		}
	case agent.ToolExecutionEnd:
		s.plan.onToolEnd(e)
	case agent.TurnEnd:
		s.ttsrTurnEnd()
		s.checkpointTurnEnd()
		// One fsync per turn instead of one per message (see StoreOptions).
		_ = s.Store().Flush()
	case agent.AgentEnd:
		s.checkpointRunEnd(e)
		_ = s.Store().Flush()
		s.shell.flushAfterRun()
		s.memoryRunEnd()
	}
	s.emit(ev)
}

// recordSettings writes the model and thinking level into the session when
// they differ from what was last recorded on its path (see
// ModelState.record).
func (s *Session) recordSettings() { s.model.record(s.Store()) }
