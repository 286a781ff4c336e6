package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
)

// TestUpdateSlotCoalescesAndKeepsOrder checks that a burst of updates
// wakes the program once and leaves only the newest, and that any other
// event delivers the waiting update before itself.
func TestUpdateSlotCoalescesAndKeepsOrder(t *testing.T) {
	var s updateSlot
	var sent []tea.Msg
	send := func(m tea.Msg) { sent = append(sent, m) }
	msgs := []*ai.AssistantMessage{{}, {}, {}}
	for _, m := range msgs {
		s.forward(send, agent.MessageUpdate{Message: m})
	}
	if len(sent) != 1 {
		t.Fatalf("three updates sent %d messages, want one wake: %#v", len(sent), sent)
	}
	if _, ok := sent[0].(updateReadyMsg); !ok {
		t.Fatalf("sent %#v, want a wake", sent[0])
	}
	u, ok := s.take()
	if !ok || u.Message != msgs[2] {
		t.Fatalf("took %v %v, want the newest update", u.Message, ok)
	}
	if _, ok := s.take(); ok {
		t.Fatal("an update was taken twice")
	}

	sent = nil
	s.forward(send, agent.MessageUpdate{Message: msgs[0]}) // wakes again: the last one was taken
	s.forward(send, agent.MessageUpdate{Message: msgs[1]})
	end := agent.MessageEnd{Message: msgs[1]}
	s.forward(send, end)
	if len(sent) != 3 {
		t.Fatalf("sent %#v, want a wake, the waiting update, the end", sent)
	}
	if e, ok := sent[1].(eventMsg); !ok || e.e.(agent.MessageUpdate).Message != msgs[1] {
		t.Fatalf("second message %#v, want the newest update", sent[1])
	}
	if e, ok := sent[2].(eventMsg); !ok || e.e != agent.Event(end) {
		t.Fatalf("third message %#v, want the end", sent[2])
	}
	if _, ok := s.take(); ok {
		t.Fatal("the update delivered before the end is still waiting")
	}
}
