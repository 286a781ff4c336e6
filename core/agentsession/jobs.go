package agentsession

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// Sizes of a background job's result in the message that delivers it.
const (
	jobInlineMax  = 12_000 // results up to this many bytes are delivered whole
	jobPreviewMax = 4_000  // longer ones: this much of their start, the rest in an artifact
)

// JobResultType is the custom type of the messages that deliver finished
// background jobs to the model.
const JobResultType = "async-result"

// offeredToolNames lists the tools the model is offered now (for the
// bash interceptor).
func (s *Session) offeredToolNames() []string {
	if s.agent == nil {
		return nil
	}
	type hidden interface{ Hidden() bool }
	var names []string
	for _, t := range s.agent.Tools() {
		if h, ok := t.(hidden); ok && h.Hidden() {
			continue
		}
		names = append(names, t.Definition().Name)
	}
	return names
}

// deliverJob hands a finished background job's result to the model: as a
// follow-up of the run in progress, or by starting a run when idle. It is
// the job manager's DeliverFunc; an error makes the manager retry.
func (s *Session) deliverJob(ctx context.Context, d job.Delivery) error {
	if s.isClosed() {
		return nil
	}
	details, _ := json.Marshal(map[string]any{"jobId": d.JobID, "type": d.Type, "label": d.Label, "durationMs": d.Duration.Milliseconds()})
	m := &message.Custom{
		CustomType:  JobResultType,
		Content:     message.PlainText(s.jobResultText(d)),
		Display:     true,
		Details:     details,
		Attribution: "agent",
		Timestamp:   nowMillis(),
	}
	if s.agent.IsRunning() {
		s.agent.FollowUp(m)
		return nil
	}
	if err := s.model.check(); err != nil {
		return err
	}
	// Idle: start a run with it, owned by the session, so the delivery
	// loop goes on with the next result meanwhile.
	s.bg.Add(1)
	s.deliveryRuns.Add(1)
	go func() {
		defer s.bg.Done()
		defer s.deliveryRuns.Add(-1)
		_ = s.SendCustomMessage(s.bgCtx, m, CustomOptions{DeliverAs: DeliverFollowUp, TriggerTurn: true})
	}()
	return nil
}

// jobsPoll is how often WaitJobs looks at the jobs.
const jobsPoll = 50 * time.Millisecond

// WaitJobs waits until the session's background work is over: no job
// running, no result waiting for delivery, and no run the deliveries
// started still going. Print mode calls it so that `gopi -p` ends with the
// answer the model gives once its background tasks and commands are done.
// onWait, when set, is called once with the number of running jobs if
// there is anything to wait for. It returns ctx's error when ctx ends
// first.
func (s *Session) WaitJobs(ctx context.Context, onWait func(running int)) error {
	if !job.Enabled(s.toolEnv) {
		return nil
	}
	m := s.svc.Jobs
	told := false
	t := time.NewTicker(jobsPoll)
	defer t.Stop()
	for {
		running := len(m.Running())
		if running == 0 && len(m.Pending()) == 0 && s.deliveryRuns.Load() == 0 && !s.agent.IsRunning() {
			return nil
		}
		if !told && onWait != nil && running > 0 {
			onWait(running)
			told = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// jobResultText is the text of a delivered result; a long result is cut
// to its start with the whole of it saved as an artifact.
func (s *Session) jobResultText(d job.Delivery) string {
	result := d.Text
	if len(result) > jobInlineMax {
		cut := jobPreviewMax
		for cut > 0 && !utf8.RuneStart(result[cut]) {
			cut--
		}
		preview := result[:cut] + fmt.Sprintf("\n\n[Output truncated: showing the first %d bytes of %d.]", cut, len(result))
		if store := s.Store().Artifacts(); store != nil {
			if id, err := store.Save("async", result); err == nil {
				preview += "\n" + tool.FullOutputNotice(id)
			}
		}
		result = preview
	}
	return fmt.Sprintf("<system-notice>\nBackground job %s (%s) has finished; here is its result. Pick up the work that was waiting for it.\n\n%s\n</system-notice>", d.JobID, d.Label, result)
}
