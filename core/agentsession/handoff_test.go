package agentsession

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// sayAndCall answers text followed by a tool call (a provider that does
// not honour toolChoice none).
func sayAndCall(text string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, text)
		em.EndText(i)
		j := em.StartToolCall("stray", "read")
		em.ToolCallDelta(j, `{"path":"x"}`)
		em.EndToolCall(j)
		em.SetStopReason(ai.StopReasonToolUse)
		em.Done(req.Model)
	}
}

// A handoff: one request that is the next turn's (system prompt, tools,
// history) plus a trailing user message, with tool use off; then a new
// session linked to the old one whose first entry is the visible handoff
// message. The old file keeps nothing of it.
func TestHandoff(t *testing.T) {
	f, s := treeFixture(t)
	ctx := context.Background()
	old := s.SessionFile()
	oldData, _ := os.ReadFile(old)
	f.script.add(sayAndCall("## Goal\nFinish q2."))

	res, err := s.Compactor().Handoff(ctx, "the open question")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	prev, req := reqs[len(reqs)-2], reqs[len(reqs)-1]
	if req.SystemPrompt != prev.SystemPrompt || len(req.Tools) != len(prev.Tools) || req.ToolChoice == nil || req.ToolChoice.Mode != ai.ToolChoiceNone ||
		req.Thinking != ai.ThinkingHigh {
		t.Errorf("request: tools %d/%d, choice %+v, thinking %q", len(req.Tools), len(prev.Tools), req.ToolChoice, req.Thinking)
	}
	got := roles(req.Messages)
	if len(got) != 5 || !slices.Equal(got[:4], []string{"user:q1", "assistant:a1", "user:q2", "assistant:a2"}) {
		t.Fatalf("request messages %q", got)
	}
	ask := req.Messages[4].(*ai.UserMessage)
	if text := userTexts([]ai.Message{ask})[0]; ask.Attribution != "agent" || !strings.Contains(text, "handoff document") || !strings.HasSuffix(text, "Pay particular attention to: the open question") {
		t.Errorf("trailing message %q", text)
	}

	if res.Document != "## Goal\nFinish q2." || res.SessionFile != s.SessionFile() || res.SessionFile == old || res.SavedPath != "" {
		t.Errorf("result %+v", res)
	}
	if data, _ := os.ReadFile(old); string(data) != string(oldData) {
		t.Error("the old session changed")
	}
	m, err := session.Open(res.SessionFile, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	entries := m.Entries()
	if m.Header().ParentSession != old || len(entries) != 1 || entries[0].Type != session.TypeCustomMessage {
		t.Fatalf("new session: parent %q, %d entries", m.Header().ParentSession, len(entries))
	}
	cm := entries[0].CustomMessage
	want := "<handoff-context>\n## Goal\nFinish q2.\n</handoff-context>\n\n" + handoffNote
	if cm.CustomType != HandoffType || !cm.Display || cm.Attribution != "agent" || cm.Content.Text() != want {
		t.Errorf("handoff message %+v %q", cm, cm.Content.Text())
	}
	if got := roles(s.Messages()); len(got) != 1 || !strings.HasPrefix(got[0], "user:<handoff-context>") {
		t.Errorf("context %q", got)
	}
	f.script.add(say("carrying on"))
	if err := s.Prompt(ctx, "go on", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs = f.script.requests()
	if got := roles(reqs[len(reqs)-1].Messages); len(got) != 2 || !strings.HasPrefix(got[0], "user:<handoff-context>") || got[1] != "user:go on" {
		t.Errorf("next request %q", got)
	}
	if s.Compactor().IsGeneratingHandoff() {
		t.Error("still generating")
	}
}

// The guard for short sessions, a failed request, an abort and an empty
// answer: each leaves the session as it was.
func TestHandoffFailuresLeaveSessionUnchanged(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	if _, err := s.Compactor().Handoff(ctx, ""); !errors.Is(err, ErrNothingToHandOff) || err.Error() != "Nothing to hand off (no messages yet)" {
		t.Errorf("empty session: %v", err)
	}
	f.script.add(say("a1"))
	if err := s.Prompt(ctx, "q1", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	file := s.SessionFile()
	data, _ := os.ReadFile(file)
	check := func(what string) {
		t.Helper()
		after, _ := os.ReadFile(s.SessionFile())
		if s.SessionFile() != file || string(after) != string(data) || len(s.Messages()) != 2 || s.Compactor().IsGeneratingHandoff() {
			t.Errorf("%s: the session changed", what)
		}
	}

	f.script.add(fail("overloaded_error: Overloaded"))
	if _, err := s.Compactor().Handoff(ctx, ""); err == nil || err.Error() != "Handoff failed: overloaded_error: Overloaded" {
		t.Errorf("failure: %v", err)
	}
	check("failure")

	f.script.add(say("   "))
	if _, err := s.Compactor().Handoff(ctx, ""); !errors.Is(err, ErrHandoffEmpty) {
		t.Errorf("empty answer: %v", err)
	}
	check("empty answer")

	for _, abort := range []func(){s.Compactor().AbortHandoff, s.Abort} {
		started := make(chan struct{})
		f.script.add(func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
			close(started)
			<-ctx.Done()
			em.Fail(ctx, req.Model, ctx.Err())
		})
		go func() {
			<-started
			abort()
		}()
		if _, err := s.Compactor().Handoff(ctx, ""); !errors.Is(err, ErrHandoffCancelled) || err.Error() != "Handoff cancelled" {
			t.Errorf("abort: %v", err)
		}
		check("abort")
	}
}

// compaction.strategy handoff: crossing the threshold hands the work to a
// new session (auto_compaction events with action handoff) and the agent
// carries on there; a handoff without a document falls back to a
// compaction in place.
func TestAutoHandoff(t *testing.T) {
	t.Parallel()
	for _, empty := range []bool{false, true} {
		name := "handoff"
		if empty {
			name = "fallback"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, keyEnv)
			f.settings("compaction:\n  strategy: handoff\n  thresholdTokens: 3000\n  keepRecentTokens: 100\n  handoffSaveToDisk: true\n")
			f.script.summarize = summaries()
			doc := "## Goal\nKeep going."
			if empty {
				doc = ""
			}
			f.script.add(sayUsage("a", 1000), sayUsage("b", 2000), sayUsage("over the threshold", 3500), say(doc), sayUsage("continued", 800))
			reg := f.registry(f.config())
			s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
			evs := record(s)
			ctx := context.Background()
			for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
				if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			first := s.SessionFile()
			if err := s.Prompt(ctx, "three", PromptOptions{}); err != nil {
				t.Fatal(err)
			}
			got := evs.compactions(t)
			if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"threshold","action":"handoff"}` {
				t.Fatalf("events %q", got)
			}
			reqs := f.script.requests()
			last := roles(reqs[len(reqs)-1].Messages)
			if !empty {
				if got[1] != `{"type":"auto_compaction_end","action":"handoff","aborted":false,"willRetry":false}` {
					t.Errorf("end %s", got[1])
				}
				if s.SessionFile() == first || s.Store().Header().ParentSession != first {
					t.Fatal("no new session")
				}
				if len(last) != 2 || !strings.HasPrefix(last[0], "user:<handoff-context>") || !strings.HasPrefix(last[1], "user:The previous session was handed over") {
					t.Errorf("continue request %q", last)
				}
				saved, err := os.ReadDir(s.Store().Artifacts().Dir())
				if err != nil || len(saved) != 1 || !strings.HasPrefix(saved[0].Name(), "handoff-") {
					t.Errorf("saved document: %v %v", saved, err)
				}
			} else {
				if !strings.HasPrefix(got[1], `{"type":"auto_compaction_end","action":"context-full","result":{"summary":"SUMMARY 1"`) {
					t.Errorf("end %s", got[1])
				}
				if s.SessionFile() != first || len(compactionEntries(t, s.Store())) != 1 {
					t.Error("no compaction in place")
				}
				if !strings.HasPrefix(last[0], "user:Earlier parts of this conversation") {
					t.Errorf("continue request %q", last)
				}
			}
			if s.LastAssistantText() != "continued" {
				t.Errorf("last answer %q", s.LastAssistantText())
			}
		})
	}
}

// A conversation of one message is too short to hand off.
func TestHandoffGuardOneMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	store := session.InMemory(f.project)
	if _, err := store.AppendMessage(userMessage("only a question", nil)); err != nil {
		t.Fatal(err)
	}
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, Store: store})
	if _, err := s.Compactor().Handoff(context.Background(), ""); !errors.Is(err, ErrNothingToHandOff) {
		t.Errorf("one message: %v", err)
	}
	if len(f.script.requests()) != 0 || s.Store() != store {
		t.Error("the guard let the handoff go on")
	}
}
