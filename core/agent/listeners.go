package agent

import "sync"

// Listeners is a set of event subscribers called in subscription order.
// The agent uses one for its events; the session runtime uses another for
// its own (agent events forwarded, plus session events). It is safe for
// concurrent use; Emit does not hold the lock while calling subscribers.
type Listeners struct {
	mu   sync.Mutex
	next int
	fns  []listener // in subscription order
}

type listener struct {
	id int
	fn func(Event)
}

// Add registers fn and returns a function that removes it.
func (l *Listeners) Add(fn func(Event)) (remove func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := l.next
	l.next++
	l.fns = append(l.fns, listener{id, fn})
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		for i, x := range l.fns {
			if x.id == id {
				l.fns = append(l.fns[:i:i], l.fns[i+1:]...)
				return
			}
		}
	}
}

// Emit calls every subscriber with ev, in subscription order.
func (l *Listeners) Emit(ev Event) {
	l.mu.Lock()
	fns := l.fns
	l.mu.Unlock()
	for _, x := range fns {
		x.fn(ev)
	}
}
