package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tools/irc"
)

// Custom message types of irc exchanges in a recipient's conversation.
const (
	CustomTypeIRCIncoming  = "irc:incoming"  // a message another agent sent
	CustomTypeIRCAutoReply = "irc:autoreply" // the answer written to it
)

// ircIncomingWrap frames a message from another agent for the side turn
// that answers it.
const ircIncomingWrap = `<irc>
Agent ` + "`%s`" + ` of this session sent you a message over IRC.
Answer it in a few plain sentences from what your conversation already holds. Call no tools: your reply goes back to ` + "`%s`" + ` as it is.

Message:
%s
</irc>`

// joinIRC gives the session its place in the session tree's agent
// directory (the parent's for a subagent, a new one at the top) before
// the tools are built; registerIRC lists it once it can answer.
func (s *Session) joinIRC(shared *irc.Registry) {
	reg := shared
	if reg == nil {
		reg = irc.NewRegistry()
	}
	s.svc.IRC = reg
	s.svc.AgentID = irc.MainID
	if s.position.ID != "" {
		s.svc.AgentID = s.position.ID
	}
}

// registerIRC lists the session in the directory; Close takes it out.
func (s *Session) registerIRC(parentID string) {
	a := irc.Agent{ID: s.svc.AgentID, DisplayName: "Main", Kind: "main", ParentID: parentID, Peer: ircPeer{s}}
	if a.ID != irc.MainID {
		a.Kind, a.DisplayName = "subagent", a.ID
		if _, name, ok := strings.Cut(a.ID, "-"); ok {
			a.DisplayName = name
		}
	}
	a.Status = func() string {
		if s.agent.IsRunning() {
			return irc.StatusRunning
		}
		return irc.StatusIdle
	}
	s.ircLeave = s.svc.IRC.Register(a)
}

// ircPeer is a session as a recipient of irc messages.
type ircPeer struct{ s *Session }

// Respond records a message from another agent in the conversation (for
// its next turn) and, with awaitReply, answers it first in a side turn:
// the session's model, system prompt and messages, no tools, as /btw
// does, so it answers while its own loop is busy in a tool.
func (p ircPeer) Respond(ctx context.Context, from, text string, awaitReply bool) (string, error) {
	s := p.s
	if s.isClosed() {
		return "", errClosed
	}
	details, _ := json.Marshal(map[string]string{"from": from, "message": text})
	incoming := &message.Custom{
		CustomType: CustomTypeIRCIncoming, Content: message.PlainText(fmt.Sprintf("[IRC `%s` → you]\n\n%s", from, text)),
		Display: true, Details: details, Attribution: "agent", Timestamp: nowMillis(),
	}
	if !awaitReply {
		s.injectIRC(incoming)
		return "", nil
	}
	reply, err := s.ircReply(ctx, from, text)
	if err != nil {
		return "", err
	}
	details, _ = json.Marshal(map[string]string{"to": from, "reply": reply})
	s.injectIRC(incoming, &message.Custom{
		CustomType: CustomTypeIRCAutoReply, Content: message.PlainText(fmt.Sprintf("[IRC you → `%s` (auto)]\n\n%s", from, reply)),
		Display: true, Details: details, Attribution: "agent", Timestamp: nowMillis(),
	})
	return reply, nil
}

// ircReply runs the side turn that answers a message.
func (s *Session) ircReply(ctx context.Context, from, text string) (string, error) {
	if s.agent.Model() == nil {
		return "", errors.New("the recipient has no model selected")
	}
	if err := s.model.check(); err != nil {
		return "", err
	}
	ask := &ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf(ircIncomingWrap, from, from, text))}, Attribution: "agent", Timestamp: nowMillis()}
	req := s.agent.RequestWith(ctx, ask)
	req.Messages = answeredOnly(req.Messages)
	req.ToolChoice = &ai.ToolChoice{Mode: ai.ToolChoiceNone}
	return s.answerText(ctx, req, "IRC reply", nil)
}

// ircFlushEvery is how often a busy session is looked at for the end of
// its run, to add the irc exchanges that wait.
const ircFlushEvery = 50 * time.Millisecond

// ircQueue holds irc exchanges until the recipient's run is over.
type ircQueue struct {
	mu       sync.Mutex
	pending  []*message.Custom
	flushing bool // a flusher goroutine is waiting for the run to end
}

// injectIRC adds an exchange to the conversation once the session is not
// running (at once when idle), without starting a run: the agent sees it
// in its next turn, and a run in progress is not steered off its course.
func (s *Session) injectIRC(msgs ...*message.Custom) {
	q := &s.irc
	q.mu.Lock()
	q.pending = append(q.pending, msgs...)
	start := !q.flushing
	q.flushing = true
	q.mu.Unlock()
	if !start {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		t := time.NewTicker(ircFlushEvery)
		defer t.Stop()
		for {
			if !s.agent.IsRunning() {
				q.mu.Lock()
				batch := q.pending
				q.pending = nil
				q.mu.Unlock()
				for _, m := range batch {
					_ = s.SendCustomMessage(s.bgCtx, m, CustomOptions{DeliverAs: DeliverSteer})
				}
				q.mu.Lock()
				if len(q.pending) == 0 {
					q.flushing = false
					q.mu.Unlock()
					return
				}
				q.mu.Unlock()
			}
			select {
			case <-s.bgCtx.Done():
				return
			case <-t.C:
			}
		}
	}()
}
