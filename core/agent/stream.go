package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// respond gets one assistant message: it takes a forced tool choice if one
// is queued, streams the response, retries transient failures when retries
// are on, and puts the forced choice back when the model did not use it.
func (a *Agent) respond(ctx context.Context, hooks *hookChain) *ai.AssistantMessage {
	forced := a.queued.takeForced()
	msg := a.streamWithRetry(ctx, hooks, forced)
	if forced != nil && forced.tool != "" && msg.StopReason != ai.StopReasonAborted && !callsTool(msg, forced.tool) {
		a.queued.putBackForced(*forced)
	}
	return msg
}

func callsTool(m *ai.AssistantMessage, name string) bool {
	for _, tc := range m.ToolCalls() {
		if tc.Name == name {
			return true
		}
	}
	return false
}

// streamWithRetry streams a response and, while it fails with a transient
// error and retries are on, waits and streams it again. Each failed attempt
// stays a complete message for the session's history (message_end) but
// leaves the conversation the model sees.
func (a *Agent) streamWithRetry(ctx context.Context, hooks *hookChain, forced *forcedChoice) *ai.AssistantMessage {
	msg := a.streamInterruptible(ctx, hooks, forced)
	retries := 0
	for {
		opts := a.Retry()
		if !opts.Enabled || ctx.Err() != nil || !ai.IsRetryable(msg) {
			if retries > 0 {
				end := AutoRetryEnd{Attempt: retries, Success: msg.StopReason != ai.StopReasonError && msg.StopReason != ai.StopReasonAborted}
				if !end.Success {
					end.FinalError = msg.ErrorMessage
				}
				a.emit(end)
			}
			return msg
		}
		policy := opts.Policy
		policy.MaxAttempts = max(policy.MaxAttempts, 0)
		if retries >= policy.MaxAttempts {
			a.emit(AutoRetryEnd{Attempt: retries, FinalError: msg.ErrorMessage})
			return msg
		}
		retries++
		delay := policy.Delay(retries, msg.ErrorMessage)
		a.dropLast(msg)
		// The wait is cancellable from the moment it is announced: a
		// subscriber may call AbortRetry while handling the event.
		wait, stop := a.retryWait(ctx)
		a.emit(AutoRetryStart{Attempt: retries, MaxAttempts: policy.MaxAttempts, DelayMs: delay.Milliseconds(), ErrorMessage: msg.ErrorMessage})
		ok := ctxsleep.Sleep(wait, delay) == nil
		stop()
		if !ok {
			a.restore(msg)
			finalErr := "Retry cancelled"
			if ctx.Err() != nil {
				finalErr = ai.AbortedMessage
			}
			a.emit(AutoRetryEnd{Attempt: retries, FinalError: finalErr})
			return msg
		}
		msg = a.streamInterruptible(ctx, hooks, forced)
	}
}

// streamInterruptible streams a response; while the interrupter stops
// responses (and the run goes on), it applies the interrupt and streams
// again. Each rule fires once per interrupter decision, so this ends when
// the interrupter has nothing more to say.
func (a *Agent) streamInterruptible(ctx context.Context, hooks *hookChain, forced *forcedChoice) *ai.AssistantMessage {
	for {
		intr := &interruptible{fn: a.opts.Interrupter}
		msg := a.streamOnce(ctx, hooks, forced, intr)
		if intr.hit == nil || ctx.Err() != nil {
			return msg
		}
		a.applyInterrupt(msg, intr.hit)
	}
}

// retryWait returns the context of a retry wait, which AbortRetry cancels,
// and the function that ends the wait.
func (a *Agent) retryWait(ctx context.Context) (context.Context, func()) {
	rctx, cancel := context.WithCancel(ctx)
	a.runs.setRetryCancel(cancel)
	return rctx, func() {
		cancel()
		a.runs.setRetryCancel(nil)
	}
}

// dropLast removes m from the end of the conversation.
func (a *Agent) dropLast(m ai.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.messages); n > 0 && a.messages[n-1] == m {
		a.messages = a.messages[:n-1]
	}
}

// restore puts m back at the end of the conversation.
func (a *Agent) restore(m ai.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.messages = append(a.messages, m)
}

// request builds the provider request for the current conversation.
func (a *Agent) request(ctx context.Context, hooks *hookChain, forced *forcedChoice) *ai.Request {
	a.mu.Lock()
	msgs := append([]ai.Message(nil), a.messages...)
	model, thinking, system, tools := a.model, a.thinking, a.systemPrompt, a.tools
	a.mu.Unlock()

	msgs = hooks.context(ctx, msgs)
	if a.opts.ConvertToLLM != nil {
		msgs = a.opts.ConvertToLLM(msgs)
	} else {
		msgs = onlyProviderRoles(msgs)
	}
	req := &ai.Request{
		Model:        model,
		SystemPrompt: system,
		Messages:     providerMessages(msgs),
		Tools:        toolDefinitions(tools, forced),
		Thinking:     thinking,
		SessionID:    a.opts.SessionID,
	}
	switch {
	case forced != nil && forced.tool == "":
		req.ToolChoice = &ai.ToolChoice{Mode: ai.ToolChoiceRequired}
	case forced != nil:
		req.ToolChoice = &ai.ToolChoice{Mode: ai.ToolChoiceTool, Name: forced.tool}
	}
	hooks.requestHooks(req)
	if a.opts.PrepareRequest != nil {
		a.opts.PrepareRequest(req)
	}
	return req
}

func onlyProviderRoles(in []ai.Message) []ai.Message {
	out := make([]ai.Message, 0, len(in))
	for _, m := range in {
		switch m.(type) {
		case *ai.UserMessage, *ai.AssistantMessage, *ai.ToolResultMessage:
			out = append(out, m)
		}
	}
	return out
}

// hidden is implemented by tools left out of the model's tool list unless
// a forced choice names them (resolve).
type hidden interface{ Hidden() bool }

// toolDefinitions lists the tools offered to the model.
func toolDefinitions(tools []tool.Tool, forced *forcedChoice) []ai.Tool {
	out := make([]ai.Tool, 0, len(tools))
	for _, t := range tools {
		def := t.Definition()
		if h, ok := t.(hidden); ok && h.Hidden() && (forced == nil || forced.tool != def.Name) {
			continue
		}
		out = append(out, ai.Tool{Name: def.Name, Description: def.Description, Parameters: schemaJSON(def.Parameters)})
	}
	return out
}

func schemaJSON(s *tool.Schema) json.RawMessage {
	if s == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return data
}

// streamOnce streams one response into the conversation, emitting
// message_start, message_update per stream event and message_end.
func (a *Agent) streamOnce(ctx context.Context, hooks *hookChain, forced *forcedChoice, intr *interruptible) *ai.AssistantMessage {
	req := a.request(ctx, hooks, forced)
	model := req.Model
	began := a.now()
	var ttft int64 // ms to the first content delta, 0 until then
	// The stream has its own context so that an interrupt can stop it
	// without aborting the run.
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	s := a.opts.Stream(sctx, req)

	var partial *ai.AssistantMessage
	started := false
	setPartial := func(p *ai.AssistantMessage) {
		a.mu.Lock()
		if started {
			a.messages[len(a.messages)-1] = p
		} else {
			a.messages = append(a.messages, p)
		}
		a.mu.Unlock()
		partial = p
	}
	finish := func(final *ai.AssistantMessage) *ai.AssistantMessage {
		if final.Duration == 0 {
			final.Duration = max(a.now().Sub(began).Milliseconds(), 1)
		}
		if final.TTFT == 0 {
			final.TTFT = ttft
		}
		wasStarted := started
		setPartial(final)
		started = true
		if !wasStarted {
			a.emit(MessageStart{Message: final})
		}
		a.emit(MessageEnd{Message: final})
		return final
	}

	for {
		ev, ok := s.Next(sctx)
		if !ok {
			// The run was aborted: give the provider a moment to end the
			// stream itself (its aborted message keeps the partial
			// content), then end it here.
			ev, ok = a.drainAborted(s)
			if !ok {
				return finish(abortedMessage(partial, model, a.now()))
			}
		}
		switch {
		case ev.Type == ai.EventStart:
			p := ev.Partial
			if p == nil {
				p = emptyMessage(model, a.now())
			}
			setPartial(p)
			started = true
			a.emit(MessageStart{Message: p})
			if intr.observe(ev) {
				stop()
			}
		case ev.Type.IsTerminal():
			final := ev.Message
			if final == nil {
				final = abortedMessage(partial, model, a.now())
			}
			return finish(final)
		default:
			if ttft == 0 && ev.Type.IsDelta() {
				ttft = max(a.now().Sub(began).Milliseconds(), 1)
			}
			if ev.Partial != nil {
				if !started {
					setPartial(ev.Partial)
					started = true
					a.emit(MessageStart{Message: ev.Partial})
				} else {
					setPartial(ev.Partial)
				}
			}
			if sctx.Err() == nil {
				a.emit(MessageUpdate{Message: partial, AssistantMessageEvent: ev})
				if intr.observe(ev) {
					stop()
				}
			}
		}
	}
}

// drainAborted waits up to the abort grace for the stream's terminal event,
// skipping other events.
func (a *Agent) drainAborted(s *ai.Stream) (ai.Event, bool) {
	grace := a.opts.AbortGrace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	gctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	for {
		ev, ok := s.Next(gctx)
		if !ok {
			return ai.Event{}, false
		}
		if ev.Type.IsTerminal() {
			return ev, true
		}
	}
}

func emptyMessage(model *ai.Model, now time.Time) *ai.AssistantMessage {
	m := &ai.AssistantMessage{Content: ai.ContentList{}, StopReason: ai.StopReasonStop, Timestamp: now.UnixMilli()}
	if model != nil {
		m.API, m.Provider, m.Model = model.API, model.Provider, model.ID
	}
	return m
}

// abortedMessage turns the last partial (or nothing) into an aborted
// message.
func abortedMessage(partial *ai.AssistantMessage, model *ai.Model, now time.Time) *ai.AssistantMessage {
	var m *ai.AssistantMessage
	if partial != nil {
		m = partial.Clone()
	} else {
		m = emptyMessage(model, now)
	}
	m.StopReason = ai.StopReasonAborted
	m.ErrorMessage = ai.AbortedMessage
	for _, b := range m.Content {
		if tc, ok := b.(*ai.ToolCall); ok {
			tc.PartialJSON = ""
		}
	}
	return m
}
