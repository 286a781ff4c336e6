package agentsession

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Delivery says how a message sent during a run is delivered.
type Delivery string

// Deliveries.
const (
	DeliverSteer    Delivery = "steer"    // before the next model call (interrupting tools in immediate mode)
	DeliverFollowUp Delivery = "followUp" // when the run would otherwise end
	DeliverNextTurn Delivery = "nextTurn" // with the next user prompt (custom messages only)
)

// PromptOptions refine Prompt.
type PromptOptions struct {
	// Images are attached to the message after its text.
	Images []*ai.ImageContent
	// StreamingBehavior says how to deliver the prompt when a run is in
	// progress: DeliverSteer or DeliverFollowUp. Empty makes such a prompt
	// fail with agent.ErrBusy.
	StreamingBehavior Delivery
	// Attribution says who wrote the message: "user" when empty, "agent"
	// for the assignment a parent agent gives a subagent.
	Attribution string
	// Files are files the user attached (@path), sent as a file mention
	// message after the prompt (see prompt.Mentions).
	Files []message.MentionedFile
	// Synthetic marks a message the agent wrote on the user's behalf (the
	// approved plan's execution order): sent like the user's, not shown
	// as typed by them.
	Synthetic bool
}

func nowMillis() int64 { return time.Now().UnixMilli() }

// userMessage builds the user's message.
func userMessage(text string, images []*ai.ImageContent) *ai.UserMessage {
	content := ai.ContentList{ai.Text(text)}
	for _, im := range images {
		content = append(content, im)
	}
	return &ai.UserMessage{Content: content, Attribution: "user", Timestamp: nowMillis()}
}

// Prompt sends the user's text and runs the agent until it is done, then
// keeps the context in shape (compaction, see compact.go) and sends the
// model back to unfinished todo tasks. While a run is in progress the
// text is queued as opts.StreamingBehavior says and Prompt returns at
// once; without one it fails with agent.ErrBusy. During the work after a
// run, or a compaction, Prompt waits for it to finish. It
// returns an error for a missing model or key, for a session that cannot
// be written (the latched persistence error), and ctx's error when ctx
// ended the run; a failed provider call ends the run with an assistant
// message whose stop reason is error (see LastAssistant), not an error here.
func (s *Session) Prompt(ctx context.Context, text string, opts PromptOptions) error {
	queued := s.agent.IsRunning()
	if err := s.prompt(ctx, text, opts); err != nil || queued {
		return err
	}
	// While planning, a run must end with ask or exit_plan_mode; the plan
	// exit_plan_mode hands over is reviewed once the turn is free
	// (approval may start a new session and the plan's execution).
	if err := s.plan.remind(ctx); err != nil {
		return err
	}
	return s.plan.review(ctx)
}

// prompt is Prompt without the plan review.
func (s *Session) prompt(ctx context.Context, text string, opts PromptOptions) error {
	if s.isClosed() {
		return errClosed
	}
	first, text, err := s.expandPrompt(text, opts)
	if err != nil {
		return err
	}
	if first == nil {
		um := userMessage(text, opts.Images)
		if opts.Attribution != "" {
			um.Attribution = opts.Attribution
		}
		um.Synthetic = opts.Synthetic
		first = um
	}
	if s.agent.IsRunning() {
		return s.queue(first, opts.StreamingBehavior)
	}
	// The work after a run (maintenance, reminders) or a compaction may
	// still hold the turn: the prompt follows it.
	if err := s.gate.acquire(ctx); err != nil {
		return err
	}
	defer s.gate.release()
	if err := s.model.check(); err != nil {
		return err
	}
	if err := s.Err(); err != nil {
		return err
	}
	gen := s.gate.abortGeneration()
	// A context left too large by the previous prompt is compacted first.
	s.compactor.prePromptCheck(ctx)
	var msgs []ai.Message
	if pm := s.plan.promptMessage(); pm != nil {
		msgs = append(msgs, pm) // the planning instructions come first
	}
	msgs = append(msgs, first)
	if len(opts.Files) > 0 {
		msgs = append(msgs, &message.FileMention{Files: opts.Files, Timestamp: nowMillis()})
	}
	msgs = append(msgs, s.gate.takeNext()...)
	s.recordSettings()
	s.inputHooks(ctx, &agent.InputEvent{Text: text, Images: len(opts.Images)})
	s.maybeTitle(text)
	s.memoryBeforeRun(ctx, text)
	planBefore := s.svc.Todos.Version()
	err = s.agent.Prompt(ctx, msgs...)
	if errors.Is(err, agent.ErrBusy) {
		// A run started outside the session (through Agent()).
		return s.queue(msgs[0], opts.StreamingBehavior)
	}
	if err == nil {
		err = s.afterRuns(ctx, gen, planBefore)
	}
	if perr := s.Err(); perr != nil {
		return perr
	}
	return err
}

// afterRuns does what follows a run, until nothing more is to be done:
// context maintenance (which may retry or continue the run, see
// maintain), then a reminder to rewind when the model stopped with a
// checkpoint open, or else a todo reminder when it stopped with
// unfinished tasks, followed by maintenance again.
func (s *Session) afterRuns(ctx context.Context, gen, planBefore int) error {
	attempt, reminded := 0, 0
	for {
		if err := s.compactor.maintain(ctx, gen); err != nil {
			return err
		}
		if ctx.Err() != nil || s.gate.abortedSince(gen) {
			return nil
		}
		m := s.checkpointReminder(reminded)
		if m != nil {
			reminded++
		} else if m = s.todoFollowUp(attempt, s.svc.Todos.Version() != planBefore); m != nil {
			attempt++
		} else {
			return nil
		}
		if err := s.agent.Prompt(ctx, m); err != nil {
			return err
		}
	}
}

// queue delivers m to a running agent as d says.
func (s *Session) queue(m ai.Message, d Delivery) error {
	switch d {
	case DeliverSteer:
		s.agent.Steer(m)
	case DeliverFollowUp:
		s.agent.FollowUp(m)
	case "":
		return agent.ErrBusy
	default:
		return fmt.Errorf("unknown streaming behavior %q: use %q or %q", d, DeliverSteer, DeliverFollowUp)
	}
	return nil
}

// CustomOptions say how SendCustomMessage delivers its message.
type CustomOptions struct {
	DeliverAs   Delivery // steer (default), followUp or nextTurn
	TriggerTurn bool     // start a run when idle (ignored for nextTurn)
}

// SendCustomMessage adds an extension's message to the conversation. While
// a run is in progress it is queued (steer or follow-up); nextTurn keeps
// it until the next user prompt. When idle it is stored at once and, with
// TriggerTurn, starts a run.
func (s *Session) SendCustomMessage(ctx context.Context, m *message.Custom, opts CustomOptions) error {
	if m.Timestamp == 0 {
		m.Timestamp = nowMillis()
	}
	if opts.DeliverAs == DeliverNextTurn {
		s.gate.keepForNext(m)
		return nil
	}
	if s.agent.IsRunning() {
		d := opts.DeliverAs
		if d == "" {
			d = DeliverSteer
		}
		return s.queue(m, d)
	}
	if err := s.gate.acquire(ctx); err != nil {
		return err
	}
	defer s.gate.release()
	if opts.TriggerTurn {
		if err := s.model.check(); err != nil {
			return err
		}
		gen := s.gate.abortGeneration()
		s.recordSettings()
		if err := s.agent.Prompt(ctx, m); err != nil {
			return err
		}
		return s.compactor.maintain(ctx, gen)
	}
	msgs := append(s.agent.Messages(), m)
	if err := s.agent.SetMessages(msgs); err != nil {
		return s.queue(m, DeliverSteer)
	}
	s.emit(agent.MessageStart{Message: m})
	s.emit(agent.MessageEnd{Message: m})
	_, err := s.Store().AppendMessage(m)
	return err
}

// Messages returns the conversation the model sees next (a copy).
func (s *Session) Messages() []ai.Message { return s.agent.Messages() }

// LastAssistant returns the last assistant message of the conversation, or
// nil.
func (s *Session) LastAssistant() *ai.AssistantMessage {
	msgs := s.agent.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, ok := msgs[i].(*ai.AssistantMessage); ok {
			return m
		}
	}
	return nil
}

// LastAssistantText returns the text of the last assistant message.
func (s *Session) LastAssistantText() string {
	if m := s.LastAssistant(); m != nil {
		return m.Text()
	}
	return ""
}
