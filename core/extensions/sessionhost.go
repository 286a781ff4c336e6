package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/resolve"
)

// SessionHost makes a session the extensions' host.
func SessionHost(s *agentsession.Session) Host { return sessionHost{s} }

type sessionHost struct{ s *agentsession.Session }

func (h sessionHost) Cwd() string { return h.s.Config().Cwd }

func (h sessionHost) UI() tool.UI {
	if env := h.s.Tools().Env(); env != nil {
		return env.UI
	}
	return nil
}

func (h sessionHost) SendMessage(ctx context.Context, customType, content string, display bool, details json.RawMessage, deliverAs string, triggerTurn bool) error {
	m := &message.Custom{CustomType: customType, Content: message.PlainText(content), Display: display, Details: details}
	return h.s.SendCustomMessage(ctx, m, agentsession.CustomOptions{DeliverAs: delivery(deliverAs), TriggerTurn: triggerTurn})
}

func (h sessionHost) SendUserMessage(ctx context.Context, text, deliverAs string) error {
	d := delivery(deliverAs)
	if d == agentsession.DeliverNextTurn {
		return errors.New("sendUserMessage cannot deliver as nextTurn: use steer or followUp")
	}
	if h.s.Turn().IsStreaming() {
		return h.s.Prompt(ctx, text, agentsession.PromptOptions{StreamingBehavior: d})
	}
	// Idle: the message starts a run, which must not hold up the caller.
	go func() { _ = h.s.Prompt(context.Background(), text, agentsession.PromptOptions{StreamingBehavior: d}) }()
	return nil
}

func (h sessionHost) AppendEntry(customType string, data json.RawMessage) error {
	_, err := h.s.Store().Record(session.CustomState(customType, data))
	return err
}

func (h sessionHost) SessionID() string { return h.s.Store().SessionID() }

func (h sessionHost) SessionName() string { return h.s.Store().Name() }

func (h sessionHost) SetSessionName(name string) error { return h.s.Tree().SetName(name) }

func (h sessionHost) ActiveTools() []string {
	var out []string
	for _, t := range h.s.Tools().Offered() {
		out = append(out, t.Definition().Name)
	}
	return out
}

func (h sessionHost) AllTools() []string {
	var out []string
	for _, t := range h.s.Tools().All() {
		out = append(out, t.Definition().Name)
	}
	return out
}

func (h sessionHost) SetActiveTools(names []string) error {
	if names == nil {
		names = []string{}
	}
	return h.s.Tools().SetActive(names)
}

func (h sessionHost) SetModel(provider, id string) error {
	m, err := h.s.Model().Find(provider, id)
	if err != nil {
		return err
	}
	return h.s.Model().Set(m)
}

func (h sessionHost) ThinkingLevel() string { return string(h.s.Agent().Thinking()) }

func (h sessionHost) SetThinkingLevel(level string) error {
	l, ok := ai.ParseThinkingLevel(level)
	if !ok {
		return fmt.Errorf("unknown thinking level %q: use off, minimal, low, medium, high or xhigh", level)
	}
	return h.s.Model().SetThinking(l)
}

func (h sessionHost) IsIdle() bool { return !h.s.Turn().IsBusy() }

func (h sessionHost) HasPendingMessages() bool { return h.s.State().QueuedMessageCount > 0 }

func (h sessionHost) Abort() { h.s.Abort() }

func (h sessionHost) SystemPrompt() string { return h.s.SystemPrompt() }

func (h sessionHost) ContextUsage() (int, int) {
	window := 0
	if m := h.s.Agent().Model(); m != nil {
		window = m.ContextWindow
	}
	return h.s.Compactor().ContextTokens(), window
}

// delivery reads deliverAs ("" is steer).
func delivery(s string) agentsession.Delivery {
	switch s {
	case "followUp":
		return agentsession.DeliverFollowUp
	case "nextTurn":
		return agentsession.DeliverNextTurn
	}
	return agentsession.DeliverSteer
}

func (h sessionHost) Model() *ai.Model { return h.s.Agent().Model() }

func (h sessionHost) FindModel(provider, id string) *ai.Model {
	m, err := h.s.Model().Find(provider, id)
	if err != nil {
		return nil
	}
	return m
}

func (h sessionHost) Branch() []*session.Entry { return h.s.Store().Path("") }

func (h sessionHost) AllEntries() []*session.Entry { return h.s.Store().Entries() }

func (h sessionHost) LeafID() string { return h.s.Store().LeafID() }

func (h sessionHost) SessionFile() string { return h.s.SessionFile() }

func (h sessionHost) SaveEntry(typ string, fields json.RawMessage) error {
	_, err := h.s.Store().AppendOther(typ, fields)
	return err
}

func (h sessionHost) RebuildContext() error { return h.s.Tree().RebuildContext() }

func (h sessionHost) PushPendingAction(label string, apply, reject func(ctx context.Context, reason string) (*tool.Result, error)) error {
	svc := h.s.Tools().Services()
	if svc == nil {
		return ErrNoPendingStore
	}
	svc.Pending.Push(&resolve.Action{Label: label, Apply: apply, Reject: reject})
	return nil
}

func (h sessionHost) AvailableModels() []*ai.Model { return h.s.Model().Available() }

func (h sessionHost) APIKey(provider string) string {
	key, _ := h.s.Model().Registry().APIKey(provider)
	return key
}
