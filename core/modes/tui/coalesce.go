package tui

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agent"
)

// updateSlot coalesces a streamed message's updates between frames. Each
// update carries the whole message so far, so only the newest one matters:
// the session's goroutine leaves it here and wakes the program once, and
// the program takes it when it draws the next frame. A streamed answer
// then costs one message, one render and one draw per frame instead of one
// per chunk. Any other event first delivers the update waiting here, so
// the program sees events in the session's order.
type updateSlot struct {
	mu     sync.Mutex
	latest agent.MessageUpdate
	has    bool // latest is waiting for the program
	woken  bool // a wake is on its way, or the update is not taken yet
}

// updateReadyMsg tells the program that an update waits in its slot.
type updateReadyMsg struct{}

// forward delivers the session's event e to the program through send.
func (s *updateSlot) forward(send func(tea.Msg), e agent.Event) {
	s.mu.Lock()
	if u, ok := e.(agent.MessageUpdate); ok {
		s.latest, s.has = u, true
		wake := !s.woken
		s.woken = true
		s.mu.Unlock()
		if wake {
			send(updateReadyMsg{})
		}
		return
	}
	pending, has := s.latest, s.has
	s.latest, s.has = agent.MessageUpdate{}, false
	s.mu.Unlock()
	if has {
		send(eventMsg{pending})
	}
	send(eventMsg{e})
}

// take returns the waiting update, if any, and lets the next update wake
// the program again.
func (s *updateSlot) take() (agent.MessageUpdate, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, has := s.latest, s.has
	s.latest, s.has, s.woken = agent.MessageUpdate{}, false, false
	return u, has
}
