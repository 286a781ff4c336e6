package agentsession

import (
	"context"
	"sync"
)

// opSlot holds the cancel function of one operation in progress that the
// user may abort (a branch summary, a handoff document), under its own
// lock. The zero value is an idle slot.
type opSlot struct {
	mu     sync.Mutex
	cancel context.CancelFunc
}

// start derives the operation's context from ctx and records it; done
// cancels that context and empties the slot.
func (o *opSlot) start(ctx context.Context) (octx context.Context, done func()) {
	octx, cancel := context.WithCancel(ctx)
	o.mu.Lock()
	o.cancel = cancel
	o.mu.Unlock()
	return octx, func() {
		cancel()
		o.mu.Lock()
		o.cancel = nil
		o.mu.Unlock()
	}
}

// abort cancels the operation in progress, if any.
func (o *opSlot) abort() {
	o.mu.Lock()
	cancel := o.cancel
	o.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// active reports whether an operation is in progress.
func (o *opSlot) active() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cancel != nil
}
