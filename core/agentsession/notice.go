package agentsession

import (
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tool"
)

// deliverNotice hands what a tool's background work found after its call
// returned (diagnostics that missed an edit's budget) to the model as a
// hidden custom message, not shown in the transcript: a follow-up of the
// run in progress, so the model reads it before the run ends; when idle,
// the start of a run, as omp queues it for the next turn and starts one.
// Without a usable model it waits for the next prompt. It is the
// services' WriteChecks delivery and runs on the fetch's goroutine.
func (s *Session) deliverNotice(n tool.Notice) {
	if s.isClosed() {
		return
	}
	m := &message.Custom{CustomType: n.CustomType, Content: message.PlainText(n.Text), Display: false, Timestamp: nowMillis()}
	if s.agent.IsRunning() {
		s.agent.FollowUp(m)
		return
	}
	if s.model.check() != nil {
		s.gate.keepForNext(m)
		return
	}
	// Idle: a run of its own, owned by the session (Close waits for it).
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		_ = s.SendCustomMessage(s.bgCtx, m, CustomOptions{DeliverAs: DeliverFollowUp, TriggerTurn: true})
	}()
}
