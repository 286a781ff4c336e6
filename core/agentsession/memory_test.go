package agentsession

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"weak"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// weakMessage is a weak reference to a message, for checking that the
// session lets it go.
type weakMessage struct {
	role  string
	alive func() bool
}

func weakOf(t *testing.T, m ai.Message) weakMessage {
	t.Helper()
	switch m := m.(type) {
	case *ai.UserMessage:
		p := weak.Make(m)
		return weakMessage{"user", func() bool { return p.Value() != nil }}
	case *ai.AssistantMessage:
		p := weak.Make(m)
		return weakMessage{"assistant", func() bool { return p.Value() != nil }}
	case *ai.ToolResultMessage:
		p := weak.Make(m)
		return weakMessage{"toolResult", func() bool { return p.Value() != nil }}
	}
	t.Fatalf("unexpected message %T", m)
	return weakMessage{}
}

// After a new session, nothing holds on to the previous conversation:
// the token counter used to remember every message it had counted (its
// cache is keyed by the message), so each new_session of a long RPC or
// ACP connection kept the whole previous conversation in memory.
func TestNewSessionReleasesTheOldConversation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("first answer"), callTool("c1", "read", `{"path":"nope.txt"}`), say("second answer"))
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	for _, p := range []string{"hello", "read something"} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s.Compactor().ContextTokens() // as get_session_stats and the idle compaction check do
	var old []weakMessage
	for _, m := range s.Messages() {
		old = append(old, weakOf(t, m))
	}
	if len(old) != 6 {
		t.Fatalf("%d messages before the new session, want 6", len(old))
	}
	if _, err := s.Tree().New(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Messages()); n != 0 {
		t.Fatalf("%d messages in the new session", n)
	}
	f.script.mu.Lock()
	f.script.reqs, f.script.titles = nil, nil // the fixture's record of the requests holds their messages
	f.script.mu.Unlock()
	runtime.GC()
	runtime.GC()
	for i, w := range old {
		if w.alive() {
			t.Errorf("message %d (%s) of the previous session is still reachable", i, w.role)
		}
	}
}

// Tool output that pruning replaced with a notice is let go: the token
// counter used to keep every result it had counted, so a long session
// kept all its pruned output in memory.
func TestPrunedToolOutputIsReleased(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.summarize = summaries()
	for i := range 7 {
		f.script.add(callTool(fmt.Sprint("call_", i), "dump", `{}`))
	}
	f.script.add(sayUsage("done", 80000))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, ExtraTools: []tool.Tool{bigTool{}}})
	var mu sync.Mutex
	results := map[string]weakMessage{} // by tool call id, as the run produced them
	s.Subscribe(func(ev agent.Event) {
		if end, ok := ev.(agent.MessageEnd); ok {
			if r, ok := end.Message.(*ai.ToolResultMessage); ok {
				mu.Lock()
				results[r.ToolCallID] = weakOf(t, r)
				mu.Unlock()
			}
		}
	})
	if err := s.Prompt(context.Background(), "dump it all", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	pruned := map[string]bool{}
	for _, m := range s.Messages() {
		if r, ok := m.(*ai.ToolResultMessage); ok && r.PrunedAt != 0 {
			pruned[r.ToolCallID] = true
		}
	}
	if len(pruned) != 3 || len(results) != 7 {
		t.Fatalf("%d results pruned of %d seen, want 3 of 7", len(pruned), len(results))
	}
	f.script.mu.Lock()
	f.script.reqs = nil // the fixture's record of the requests holds their messages
	f.script.mu.Unlock()
	runtime.GC()
	runtime.GC()
	mu.Lock()
	defer mu.Unlock()
	for id, w := range results {
		if pruned[id] && w.alive() {
			t.Errorf("the output of %s was pruned but is still in memory", id)
		}
		if !pruned[id] && !w.alive() {
			t.Errorf("the output of %s was not pruned, yet it is gone", id)
		}
	}
}
