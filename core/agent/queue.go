package agent

import (
	"fmt"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
)

// QueueMode says how many queued messages are delivered at once.
type QueueMode string

// Queue modes.
const (
	OneAtATime QueueMode = "one-at-a-time" // one message per delivery point (the default)
	AllAtOnce  QueueMode = "all"           // every queued message at once
)

// ParseQueueMode validates a queue mode name ("" means one-at-a-time).
func ParseQueueMode(s string) (QueueMode, error) {
	switch QueueMode(s) {
	case "", OneAtATime:
		return OneAtATime, nil
	case AllAtOnce:
		return AllAtOnce, nil
	}
	return "", fmt.Errorf("unknown queue mode %q: use %q or %q", s, OneAtATime, AllAtOnce)
}

// InterruptMode says when steering messages interrupt a turn.
type InterruptMode string

// Interrupt modes.
const (
	InterruptImmediate InterruptMode = "immediate" // between tool calls: remaining calls are skipped (the default)
	InterruptWait      InterruptMode = "wait"      // at the end of the turn
)

// ParseInterruptMode validates an interrupt mode name ("" means immediate).
func ParseInterruptMode(s string) (InterruptMode, error) {
	switch InterruptMode(s) {
	case "", InterruptImmediate:
		return InterruptImmediate, nil
	case InterruptWait:
		return InterruptWait, nil
	}
	return "", fmt.Errorf("unknown interrupt mode %q: use %q or %q", s, InterruptImmediate, InterruptWait)
}

// queues holds what waits for the loop: steering and follow-up messages,
// one-shot forced tool choices, and the interrupt mode that decides when
// steering stops a batch of tool calls. It has its own lock, last in the
// agent's lock order (see Agent): no method takes another lock or calls
// out while holding it.
type queues struct {
	mu        sync.Mutex
	steering  messageQueue
	followUp  messageQueue
	interrupt InterruptMode
	forced    []forcedChoice // oldest first
}

// forcedChoice is a queued one-shot tool choice.
type forcedChoice struct {
	tool  string // the tool the next call must use
	label string // why, for diagnostics
}

func newQueues(opts Options) queues {
	return queues{
		steering:  messageQueue{mode: orDefault(opts.SteeringMode, OneAtATime)},
		followUp:  messageQueue{mode: orDefault(opts.FollowUpMode, OneAtATime)},
		interrupt: orDefault(opts.InterruptMode, InterruptImmediate),
	}
}

// modes returns the delivery and interrupt modes.
func (q *queues) modes() Modes {
	q.mu.Lock()
	defer q.mu.Unlock()
	return Modes{Steering: q.steering.mode, FollowUp: q.followUp.mode, Interrupt: q.interrupt}
}

// setModes sets the modes m names; a zero field keeps the current mode.
func (q *queues) setModes(m Modes) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if m.Steering != "" {
		q.steering.mode = m.Steering
	}
	if m.FollowUp != "" {
		q.followUp.mode = m.FollowUp
	}
	if m.Interrupt != "" {
		q.interrupt = m.Interrupt
	}
}

// interruptImmediate reports whether steering stops a batch of tool calls.
func (q *queues) interruptImmediate() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.interrupt == InterruptImmediate
}

// steer queues m as a steering message.
func (q *queues) steer(m ai.Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.steering.items = append(q.steering.items, m)
}

// followUpWith queues m as a follow-up message.
func (q *queues) followUpWith(m ai.Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.followUp.items = append(q.followUp.items, m)
}

// list returns copies of the steering and follow-up queues, oldest
// first, leaving them as they are.
func (q *queues) list() (steering, followUp []ai.Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]ai.Message(nil), q.steering.items...), append([]ai.Message(nil), q.followUp.items...)
}

// clear removes and returns every queued message.
func (q *queues) clear() (steering, followUp []ai.Message) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.steering.drain(), q.followUp.drain()
}

// takeSteering removes and returns the steering messages due now.
func (q *queues) takeSteering() []ai.Message {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.steering.take()
}

// takeFollowUp removes and returns the follow-up messages due now.
func (q *queues) takeFollowUp() []ai.Message {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.followUp.take()
}

// takeAny removes and returns the steering messages due now or, when
// there are none, the follow-up messages due now; steered says which.
func (q *queues) takeAny() (msgs []ai.Message, steered bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if msgs := q.steering.take(); len(msgs) > 0 {
		return msgs, true
	}
	return q.followUp.take(), false
}

// force queues a forced tool choice after the others.
func (q *queues) force(f forcedChoice) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.forced = append(q.forced, f)
}

// takeForced removes and returns the oldest forced choice, or nil.
func (q *queues) takeForced() *forcedChoice {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.forced) == 0 {
		return nil
	}
	f := q.forced[0]
	q.forced = q.forced[1:]
	return &f
}

// putBackForced puts f in front of the queued forced choices.
func (q *queues) putBackForced(f forcedChoice) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.forced = append([]forcedChoice{f}, q.forced...)
}

// forcedTools returns the tools of the queued forced choices, in order.
func (q *queues) forcedTools() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]string, len(q.forced))
	for i, f := range q.forced {
		out[i] = f.tool
	}
	return out
}

// messageQueue is a FIFO of messages with a delivery mode; queues' mutex
// guards it.
type messageQueue struct {
	mode  QueueMode
	items []ai.Message
}

// take removes and returns what the mode delivers now.
func (q *messageQueue) take() []ai.Message {
	if len(q.items) == 0 {
		return nil
	}
	if q.mode == AllAtOnce {
		out := q.items
		q.items = nil
		return out
	}
	out := []ai.Message{q.items[0]}
	q.items[0] = nil
	q.items = q.items[1:]
	return out
}

// drain removes and returns everything.
func (q *messageQueue) drain() []ai.Message {
	out := q.items
	q.items = nil
	return out
}
