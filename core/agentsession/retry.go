package agentsession

import (
	"context"

	"github.com/gopi-agent/gopi/core/ai"
)

// Retry sends the last turn again when it failed or was aborted (/retry):
// the failed answer leaves what the model sees (it stays in the session
// file) and the agent continues from the message before it, with the
// usual work after the run. It reports false, doing nothing, when the
// conversation does not end with a failed or aborted answer. It fails
// with ErrWorking while a run streams.
func (c *Conversation) Retry(ctx context.Context) (bool, error) {
	s := c.s
	if err := s.gate.take(ctx); err != nil {
		return false, err
	}
	defer s.gate.release()
	msgs := s.agent.Messages()
	n := len(msgs)
	if n == 0 {
		return false, nil
	}
	last, ok := msgs[n-1].(*ai.AssistantMessage)
	if !ok || (last.StopReason != ai.StopReasonError && last.StopReason != ai.StopReasonAborted) {
		return false, nil
	}
	if err := s.model.check(); err != nil {
		return false, err
	}
	if err := s.agent.SetMessages(msgs[:n-1]); err != nil {
		return false, err
	}
	gen := s.gate.abortGeneration()
	planBefore := s.svc.Todos.Version()
	if err := s.agent.Continue(ctx); err != nil {
		return true, err
	}
	return true, s.afterRuns(ctx, gen, planBefore)
}
