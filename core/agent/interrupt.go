package agent

import "github.com/gopi-agent/gopi/core/ai"

// StreamInterrupt stops a response while it streams (Options.Interrupter)
// and asks the model again with more context: the stream is cancelled,
// the stopped message ends as aborted (its message_end is emitted, so
// front ends close it), it leaves the conversation unless KeepPartial,
// Messages are added, and the same turn streams a new response. Retries
// and forced tool choices are unaffected. This is how the session's stream
// rules (TTSR) put a rule in front of the model the moment its output
// breaks it.
type StreamInterrupt struct {
	// Messages are added after the stopped response (or in its place).
	Messages []ai.Message
	// KeepPartial keeps the stopped response in the conversation (its
	// text; calls without results are not sent, see providerMessages).
	KeepPartial bool
}

// interruptible wraps the interrupter for one response.
type interruptible struct {
	fn  func(ai.Event) *StreamInterrupt
	hit *StreamInterrupt
}

// observe passes ev to the interrupter unless it already fired; it reports
// whether the response must stop now.
func (i *interruptible) observe(ev ai.Event) bool {
	if i == nil || i.fn == nil || i.hit != nil {
		return false
	}
	i.hit = i.fn(ev)
	return i.hit != nil
}

// applyInterrupt takes the stopped message out of the conversation (unless
// kept) and adds the interrupt's messages, announcing each.
func (a *Agent) applyInterrupt(msg *ai.AssistantMessage, in *StreamInterrupt) {
	if !in.KeepPartial {
		a.dropLast(msg)
	}
	for _, m := range in.Messages {
		a.restore(m)
		a.emit(MessageStart{Message: m})
		a.emit(MessageEnd{Message: m})
	}
}
