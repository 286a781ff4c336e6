package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

var testModel = &ai.Model{ID: "m1", Provider: "mock", API: "mock-api", ContextWindow: 100000, MaxTokens: 1000}

// turnFunc plays one scripted response on an emitter.
type turnFunc func(ctx context.Context, req *ai.Request, em *ai.Emitter)

// script is a StreamFunc that plays scripted turns and records requests.
type script struct {
	t     *testing.T
	mu    sync.Mutex
	turns []turnFunc
	reqs  []*ai.Request
}

func newScript(t *testing.T, turns ...turnFunc) *script { return &script{t: t, turns: turns} }

func (s *script) add(turns ...turnFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

func (s *script) stream(ctx context.Context, req *ai.Request) *ai.Stream {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	var turn turnFunc
	if len(s.turns) > 0 {
		turn, s.turns = s.turns[0], s.turns[1:]
	}
	s.mu.Unlock()
	em, st := ai.NewEmitter(req.Model)
	go func() {
		if turn == nil {
			em.Fail(ctx, req.Model, errors.New("script exhausted: no scripted turn left"))
			return
		}
		turn(ctx, req, em)
	}()
	return st
}

func (s *script) requests() []*ai.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*ai.Request(nil), s.reqs...)
}

// say answers with text.
func say(text string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, text)
		em.EndText(i)
		em.SetStopReason(ai.StopReasonStop)
		em.Done(req.Model)
	}
}

// call is one scripted tool call.
type call struct {
	name string
	args string
}

// calls answers with tool calls (ids c0, c1, … per turn prefix).
func calls(prefix string, cs ...call) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		for i, c := range cs {
			idx := em.StartToolCall(fmt.Sprintf("%s%d", prefix, i), c.name)
			em.ToolCallDelta(idx, c.args)
			em.EndToolCall(idx)
		}
		em.SetStopReason(ai.StopReasonToolUse)
		em.Done(req.Model)
	}
}

// fail answers with a provider error.
func fail(msg string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Fail(nil, req.Model, errors.New(msg))
	}
}

// stall streams text and then waits for the context to end.
func stall(text string, started chan<- struct{}) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, text)
		close(started)
		<-ctx.Done()
		em.Fail(ctx, req.Model, ctx.Err())
	}
}

// fakeTool is a configurable test tool.
type fakeTool struct {
	name      string
	exclusive bool
	schema    *tool.Schema
	run       func(ctx context.Context, args tool.Args) (*tool.Result, error)
}

func (f *fakeTool) Definition() tool.Definition {
	d := tool.Definition{Name: f.name, Description: "test tool " + f.name, Parameters: f.schema}
	if f.exclusive {
		d.Concurrency = tool.Exclusive
	}
	return d
}

func (f *fakeTool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	if f.run == nil {
		return tool.TextResult(f.name+" ok", nil), nil
	}
	return f.run(ctx, args)
}

// recorder collects events.
type recorder struct {
	mu  sync.Mutex
	evs []Event
}

func (r *recorder) add(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
}

func (r *recorder) types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.evs))
	for i, ev := range r.evs {
		out[i] = ev.EventType()
	}
	return out
}

func (r *recorder) events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.evs...)
}

// waitTextDelta waits until the recorder has seen a text delta of the
// message being streamed, so that the loop's partial message holds it.
func (r *recorder) waitTextDelta(t *testing.T) {
	t.Helper()
	testwait.Until(t, "a text delta", func() bool {
		return slices.ContainsFunc(r.events(), func(ev Event) bool {
			u, ok := ev.(MessageUpdate)
			return ok && u.AssistantMessageEvent.Type == ai.EventTextDelta
		})
	})
}

func newAgent(t *testing.T, s *script, tools ...tool.Tool) (*Agent, *recorder) {
	t.Helper()
	a := New(Options{Model: testModel, Stream: s.stream, Tools: tools, Now: func() time.Time { return time.UnixMilli(1_700_000_000_000) }})
	rec := &recorder{}
	a.Subscribe(rec.add)
	return a, rec
}

func user(text string) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Timestamp: 1}
}

func userTexts(msgs []ai.Message) []string {
	var out []string
	for _, m := range msgs {
		if u, ok := m.(*ai.UserMessage); ok {
			out = append(out, u.Content[0].(*ai.TextContent).Text)
		}
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func resultTexts(rs []*ai.ToolResultMessage) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Content[0].(*ai.TextContent).Text)
	}
	return out
}

func lastTurnEnd(rec *recorder) TurnEnd {
	evs := rec.events()
	for i := len(evs) - 1; i >= 0; i-- {
		if te, ok := evs[i].(TurnEnd); ok {
			return te
		}
	}
	return TurnEnd{}
}
