package agent

import (
	"fmt"

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

// messageQueue is a FIFO of messages with a delivery mode. The Agent's
// mutex guards it.
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
