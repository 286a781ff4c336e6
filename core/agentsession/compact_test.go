package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// settings writes the agent directory's config.yml.
func (f *fixture) settings(yml string) {
	f.t.Helper()
	dir := filepath.Join(f.home, ".gopi", "agent")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yml"), []byte(yml), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// sayUsage answers text, reporting input prompt tokens.
func sayUsage(text string, input int) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, text)
		em.EndText(i)
		em.SetUsage(ai.Usage{Input: input, Output: 10, TotalTokens: input + 10})
		em.SetStopReason(ai.StopReasonStop)
		em.Done(req.Model)
	}
}

// fail answers with a provider error.
func fail(text string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) { em.Fail(ctx, req.Model, errors.New(text)) }
}

const tooLong = "prompt is too long: 212000 tokens > 200000 maximum"

// summaries answers summary requests: the recap for the short summary,
// "SUMMARY n" for the others.
func summaries() turnFunc {
	var mu sync.Mutex
	n := 0
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		prompt := userTexts(req.Messages)[0]
		text := "Recap."
		if !strings.Contains(prompt, "two or three sentences") {
			mu.Lock()
			n++
			text = "SUMMARY " + string(rune('0'+n))
			mu.Unlock()
		}
		sayUsage(text, 100)(ctx, req, em)
	}
}

// events records a session's events.
type events struct {
	mu  sync.Mutex
	evs []agent.Event
}

func record(s *Session) *events {
	e := &events{}
	s.Subscribe(func(ev agent.Event) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.evs = append(e.evs, ev)
	})
	return e
}

// compactions returns the auto_compaction events as JSON lines.
func (e *events) compactions(t *testing.T) []string {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		switch ev.(type) {
		case AutoCompactionStart, AutoCompactionEnd:
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	return out
}

// roles describes messages as role:text, for assertions on requests.
func roles(msgs []ai.Message) []string {
	var out []string
	for _, m := range message.ToLLM(msgs) {
		var text string
		switch m := m.(type) {
		case *ai.UserMessage:
			text = userTexts([]ai.Message{m})[0]
		case *ai.AssistantMessage:
			text = m.Text()
		case *ai.ToolResultMessage:
			for _, c := range m.Content {
				if t, ok := c.(*ai.TextContent); ok {
					text += t.Text
				}
			}
		}
		if len(text) > 40 {
			text = text[:40]
		}
		out = append(out, string(m.MessageRole())+":"+text)
	}
	return out
}

func compactionEntries(t *testing.T, store *session.Manager) []*session.Entry {
	t.Helper()
	var out []*session.Entry
	for _, e := range store.Entries() {
		if e.Compaction != nil {
			out = append(out, e)
		}
	}
	return out
}

// longText is about n o200k tokens of text.
func longText(n int) string { return strings.Repeat(" word", n) }

func TestCompactManual(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 300\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("first answer", 1000), sayUsage("second answer", 2000), sayUsage("third answer", 2100), sayUsage("after compaction", 900))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	for _, p := range []string{"one" + longText(500), "two" + longText(500), "three" + longText(500)} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Compactor().Compact(ctx, "the numbers")
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary != "SUMMARY 1" || res.ShortSummary != "Recap." || res.TokensBefore != 2110 {
		t.Errorf("result %+v", res)
	}
	f.script.mu.Lock()
	sums := f.script.sums
	f.script.mu.Unlock()
	if len(sums) != 2 {
		t.Fatalf("%d summary requests", len(sums))
	}
	hist := userTexts(sums[0].Messages)[0]
	if !strings.HasPrefix(hist, "<conversation>\nUser: one") || !strings.Contains(hist, "Assistant: second answer") ||
		strings.Contains(hist, "three") || !strings.HasSuffix(hist, "the numbers") || len(sums[0].Tools) != 0 {
		t.Errorf("history request:\n%.300s … %s", hist, hist[max(0, len(hist)-100):])
	}

	// The entry is stored; the model now sees the summary and the kept
	// turn, and so does a resumed session.
	store := s.Store()
	comps := compactionEntries(t, store)
	if len(comps) != 1 || comps[0].Compaction.FirstKeptEntryID != res.FirstKeptEntryID || comps[0].Compaction.FromExtension {
		t.Fatalf("entries %+v", comps)
	}
	want := []string{"user:Earlier parts of this conversation were ", "user:three word word word word word word word", "assistant:third answer"}
	if got := roles(s.Messages()); !slices.Equal(got, want) {
		t.Errorf("context after compaction %q", got)
	}
	if err := s.Prompt(ctx, "four", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if got := roles(reqs[len(reqs)-1].Messages); !slices.Equal(got, append(want, "user:four")) {
		t.Errorf("next request %q", got)
	}
	path := s.SessionFile()
	s.Close()
	m, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := roles(m.BuildContext().Messages); !slices.Equal(got, append(want, "user:four", "assistant:after compaction")) {
		t.Errorf("resumed context %q", got)
	}
	var d compaction.Details
	if err := json.Unmarshal(compactionEntries(t, m)[0].Compaction.Details, &d); err != nil || d.ReadFiles == nil {
		t.Errorf("details %s: %v", compactionEntries(t, m)[0].Compaction.Details, err)
	}
}

func TestCompactTooSmallAndAlreadyCompacted(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.summarize = summaries()
	f.script.add(sayUsage("hi", 100))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if _, err := s.Compactor().Compact(context.Background(), ""); !errors.Is(err, compaction.ErrTooSmall) {
		t.Errorf("empty session: %v", err)
	}
	if err := s.Prompt(context.Background(), "hello", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Compactor().Compact(context.Background(), "")
	if err == nil || err.Error() != "Nothing to compact (session too small)" {
		t.Errorf("small session: %v", err)
	}
}

// A summary request that fails or is aborted leaves the session as it
// was: no entry, the same messages, the same file.
func TestCompactFailureLeavesSessionUnchanged(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"error", "abort", "hook-cancel"} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t, keyEnv)
			f.settings("compaction:\n  keepRecentTokens: 100\n")
			started := make(chan struct{}, 4)
			f.script.summarize = func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
				started <- struct{}{}
				switch mode {
				case "error":
					fail("overloaded_error: Overloaded")(ctx, req, em)
				default:
					<-ctx.Done()
					em.Fail(ctx, req.Model, ctx.Err())
				}
			}
			f.script.add(sayUsage("a", 500), sayUsage("b", 900))
			reg := f.registry(f.config())
			var hooks []*agent.Hooks
			if mode == "hook-cancel" {
				hooks = []*agent.Hooks{{Name: "veto", SessionBeforeCompact: func(ctx context.Context, ev *compaction.BeforeCompactEvent) (*compaction.BeforeCompactResult, error) {
					return &compaction.BeforeCompactResult{Cancel: true}, nil
				}}}
			}
			s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, Hooks: hooks})
			s.Turn().SetAutoRetry(false)
			for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
				if err := s.Prompt(context.Background(), p, PromptOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			before := s.Messages()
			data, _ := os.ReadFile(s.SessionFile())
			if mode == "abort" {
				go func() {
					<-started
					s.Abort()
				}()
			}
			_, err := s.Compactor().Compact(context.Background(), "")
			switch mode {
			case "error":
				if err == nil || err.Error() != "Summarization failed: overloaded_error: Overloaded" {
					t.Errorf("error: %v", err)
				}
			default:
				if !errors.Is(err, ErrCompactionCancelled) {
					t.Errorf("error: %v", err)
				}
			}
			after, _ := os.ReadFile(s.SessionFile())
			if len(compactionEntries(t, s.Store())) != 0 || string(after) != string(data) || !slices.Equal(roles(s.Messages()), roles(before)) {
				t.Error("the session changed")
			}
			if s.Compactor().IsCompacting() {
				t.Error("still compacting")
			}
		})
	}
}

func TestCompactionHooks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 500), sayUsage("b", 900), sayUsage("c", 900), sayUsage("d", 900))
	reg := f.registry(f.config())
	var mu sync.Mutex
	var compacted []*compaction.CompactEvent
	supply := false
	hooks := []*agent.Hooks{
		{Name: "first", SessionCompacting: func(ctx context.Context, ev *compaction.CompactingEvent) (*compaction.CompactingResult, error) {
			return &compaction.CompactingResult{Context: []string{"ignored"}}, nil
		}},
		{Name: "broken", SessionCompacting: func(ctx context.Context, ev *compaction.CompactingEvent) (*compaction.CompactingResult, error) {
			panic("boom")
		}},
		{Name: "second", SessionCompacting: func(ctx context.Context, ev *compaction.CompactingEvent) (*compaction.CompactingResult, error) {
			if len(ev.Messages) == 0 || ev.SessionID == "" {
				t.Errorf("compacting event %+v", ev)
			}
			return &compaction.CompactingResult{Context: []string{"the memory says hi"}, Prompt: "WRITE IT SHORT", PreserveData: map[string]any{"hook": true}}, nil
		},
			SessionBeforeCompact: func(ctx context.Context, ev *compaction.BeforeCompactEvent) (*compaction.BeforeCompactResult, error) {
				if !supply {
					return nil, nil
				}
				return &compaction.BeforeCompactResult{Compaction: &compaction.Result{Summary: "FROM THE HOOK", FirstKeptEntryID: ev.Preparation.FirstKeptEntryID, TokensBefore: 7}}, nil
			},
			SessionCompact: func(ctx context.Context, ev *compaction.CompactEvent) {
				mu.Lock()
				compacted = append(compacted, ev)
				mu.Unlock()
			}},
	}
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, Hooks: hooks})
	evs := record(s)
	for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
		if err := s.Prompt(context.Background(), p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Compactor().Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	f.script.mu.Lock()
	hist := userTexts(f.script.sums[0].Messages)[0]
	f.script.mu.Unlock()
	if !strings.Contains(hist, "<additional-context>\n- the memory says hi\n</additional-context>\n\nWRITE IT SHORT") || strings.Contains(hist, "ignored") {
		t.Errorf("history prompt: %s", hist[strings.Index(hist, "</conversation>"):])
	}
	c := compactionEntries(t, s.Store())[0].Compaction
	if string(c.PreserveData) != `{"hook":true}` || c.FromExtension {
		t.Errorf("entry %+v", c)
	}
	var hookErr bool
	for _, ev := range evs.evs {
		if he, ok := ev.(agent.HookError); ok && he.Hook == "broken" && he.Event == "session.compacting" {
			hookErr = true
		}
	}
	if !hookErr {
		t.Error("the panicking hook was not reported")
	}

	// A hook supplies the compaction: stored as fromExtension, no model call.
	supply = true
	for _, p := range []string{"three" + longText(300), "four" + longText(300)} {
		if err := s.Prompt(context.Background(), p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	f.script.mu.Lock()
	nsums := len(f.script.sums)
	f.script.mu.Unlock()
	res, err := s.Compactor().Compact(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	f.script.mu.Lock()
	if len(f.script.sums) != nsums {
		t.Error("the model was asked although a hook supplied the compaction")
	}
	f.script.mu.Unlock()
	comps := compactionEntries(t, s.Store())
	if res.Summary != "FROM THE HOOK" || len(comps) != 2 || !comps[1].Compaction.FromExtension || comps[1].Compaction.TokensBefore != 7 {
		t.Errorf("supplied: %+v %+v", res, comps[1].Compaction)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(compacted) != 2 || compacted[0].FromExtension || !compacted[1].FromExtension || compacted[1].Entry.ID != comps[1].ID {
		t.Errorf("session_compact events %+v", compacted)
	}
}

func TestThresholdCompactionAfterATurn(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  thresholdTokens: 3000\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 1000), sayUsage("b", 2000), sayUsage("over the threshold", 3500), sayUsage("continued", 800))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := evs.compactions(t); len(got) != 0 {
		t.Fatalf("compacted below the threshold: %v", got)
	}
	if err := s.Prompt(ctx, "three", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	got := evs.compactions(t)
	if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"threshold","action":"context-full"}` ||
		!strings.HasPrefix(got[1], `{"type":"auto_compaction_end","action":"context-full","result":{"summary":"SUMMARY 1","shortSummary":"Recap.","firstKeptEntryId":`) ||
		!strings.HasSuffix(got[1], `"aborted":false,"willRetry":false}`) {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
	// The agent was sent back to work once: its request starts with the
	// summary, then the kept entries, then the continue note.
	reqs := f.script.requests()
	last := roles(reqs[len(reqs)-1].Messages)
	if len(reqs) != 4 || !strings.HasPrefix(last[0], "user:Earlier parts of this conversation") || !strings.HasPrefix(last[len(last)-1], "user:The conversation was just compacted") {
		t.Errorf("%d requests; last %q", len(reqs), last)
	}
	if s.LastAssistantText() != "continued" {
		t.Errorf("last answer %q", s.LastAssistantText())
	}
}

func TestOverflowRecovery(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 1000), sayUsage("b", 2000), fail(tooLong), sayUsage("recovered", 500))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"one" + longText(300), "two" + longText(300), "three"} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	got := evs.compactions(t)
	if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"overflow","action":"context-full"}` || !strings.HasSuffix(got[1], `"aborted":false,"willRetry":true}`) {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
	reqs := f.script.requests()
	retry := roles(reqs[len(reqs)-1].Messages)
	if len(reqs) != 4 || !strings.HasPrefix(retry[0], "user:Earlier parts") || retry[len(retry)-1] != "user:three" {
		t.Errorf("retry request %q", retry)
	}
	if s.LastAssistantText() != "recovered" {
		t.Errorf("last %q", s.LastAssistantText())
	}
	// The failed answer is in the file, not in what the model sees.
	for _, m := range s.Messages() {
		if a, ok := m.(*ai.AssistantMessage); ok && a.StopReason == ai.StopReasonError {
			t.Error("the overflow error is still in the context")
		}
	}
}

// An overflow that persists after compacting ends with the documented
// failure and keeps the user's message.
func TestOverflowRecoveryFails(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 1000), sayUsage("b", 2000), fail(tooLong), fail(tooLong))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"one" + longText(300), "two" + longText(300), "the big one"} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	got := evs.compactions(t)
	if len(got) != 4 || got[3] != `{"type":"auto_compaction_end","action":"context-full","aborted":false,"willRetry":false,"errorMessage":"Context overflow recovery failed: `+overflowPersists+`"}` {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
	if n := len(f.script.requests()); n != 4 {
		t.Errorf("%d requests: the turn was retried more than once", n)
	}
	if texts := userTexts(s.Messages()); texts[len(texts)-1] != "the big one" {
		t.Errorf("the user's message is gone: %q", texts)
	}
	found := false
	for _, e := range s.Store().Entries() {
		if u, ok := e.Message.(*ai.UserMessage); ok && userTexts([]ai.Message{u})[0] == "the big one" {
			found = true
		}
	}
	if !found {
		t.Error("the user's message is not in the session")
	}
}

// Without anything to summarise, an overflow cannot be recovered: the
// failure says why.
func TestOverflowWithNothingToCompact(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.summarize = summaries()
	f.script.add(fail(tooLong))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	if err := s.Prompt(context.Background(), "huge", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	got := evs.compactions(t)
	if len(got) != 2 || !strings.Contains(got[1], `"errorMessage":"Context overflow recovery failed: Nothing to compact (session too small)"`) {
		t.Errorf("events %v", got)
	}
}

func TestOverflowPromotesToALargerModel(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "MOCK_KEY=k")
	dir := filepath.Join(f.home, ".gopi", "agent")
	os.MkdirAll(dir, 0o755)
	yml := "providers:\n  mock:\n    baseUrl: http://127.0.0.1:1\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n" +
		"      - id: small\n        contextWindow: 1000\n        contextPromotionTarget: big\n      - id: big\n        contextWindow: 100000\n"
	if err := os.WriteFile(filepath.Join(dir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	f.script.summarize = summaries()
	f.script.add(fail(tooLong), sayUsage("on the big model", 500))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "mock/small"), NoTitle: true})
	evs := record(s)
	if err := s.Prompt(context.Background(), "hello", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if len(reqs) != 2 || reqs[1].Model.ID != "big" || s.LastAssistantText() != "on the big model" || len(evs.compactions(t)) != 0 {
		t.Fatalf("%d requests, last model %s, answer %q, events %v", len(reqs), reqs[len(reqs)-1].Model.ID, s.LastAssistantText(), evs.compactions(t))
	}
	var temp bool
	for _, e := range s.Store().Entries() {
		if e.ModelChange != nil && e.ModelChange.Role == "temporary" && e.ModelChange.Model == "mock/big" {
			temp = true
		}
	}
	if !temp {
		t.Error("no temporary model change recorded")
	}
}

// bigTool returns about 10,000 tokens of output per call.
type bigTool struct{}

func (bigTool) Definition() tool.Definition {
	return tool.Definition{Name: "dump", Description: "dumps a lot", Parameters: tool.Object(nil)}
}

func (bigTool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	return tool.TextResult(longText(10000), nil), nil
}

// After a turn, old tool output beyond the newest 40,000 tokens is pruned
// in the file and in what the model sees (read output is never pruned).
func TestPruneOldToolOutputAfterATurn(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.summarize = summaries()
	for i := range 7 {
		f.script.add(callTool(fmt.Sprint("call_", i), "dump", `{}`))
	}
	f.script.add(sayUsage("done", 80000), sayUsage("next", 30000))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, ExtraTools: []tool.Tool{bigTool{}}})
	if err := s.Prompt(context.Background(), "dump it all", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	var pruned, whole int
	for _, m := range s.Messages() {
		if r, ok := m.(*ai.ToolResultMessage); ok {
			if r.PrunedAt != 0 {
				pruned++
				if txt := r.Content[0].(*ai.TextContent).Text; !strings.HasPrefix(txt, "[Output truncated - ") {
					t.Errorf("pruned text %q", txt)
				}
			} else {
				whole++
			}
		}
	}
	// Newest first: four results reach the 40k protected, the rest (3)
	// are pruned.
	if pruned != 3 || whole != 4 {
		t.Errorf("%d pruned, %d whole", pruned, whole)
	}
	data, _ := os.ReadFile(s.SessionFile())
	if n := strings.Count(string(data), `"prunedAt":`); n != 3 {
		t.Errorf("%d pruned entries in the file", n)
	}
	// The next request sends the notices.
	if err := s.Prompt(context.Background(), "next", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if n := strings.Count(strings.Join(roles(reqs[len(reqs)-1].Messages), "\n"), "toolResult:[Output truncated - "); n != 3 {
		t.Errorf("%d notices sent", n)
	}
}

// A prompt sent while the previous one is still compacting (after its
// run) waits for the compaction and then runs on the compacted context.
func TestPromptDuringCompactionWaits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  thresholdTokens: 3000\n  keepRecentTokens: 100\n  autoContinue: false\n")
	release := make(chan struct{})
	inSummary := make(chan struct{}, 4)
	sum := summaries()
	f.script.summarize = func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		inSummary <- struct{}{}
		<-release
		sum(ctx, req, em)
	}
	f.script.add(sayUsage("a", 1000), sayUsage("over", 3500), sayUsage("after", 500))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	if err := s.Prompt(ctx, "one"+longText(300), PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	first := make(chan error, 1)
	go func() { first <- s.Prompt(ctx, "two"+longText(300), PromptOptions{}) }()
	<-inSummary
	if !s.Compactor().IsCompacting() || !s.Turn().IsBusy() || s.Turn().IsStreaming() {
		t.Errorf("compacting %v busy %v streaming %v", s.Compactor().IsCompacting(), s.Turn().IsBusy(), s.Turn().IsStreaming())
	}
	second := make(chan error, 1)
	go func() { second <- s.Prompt(ctx, "three", PromptOptions{}) }()
	testwait.Until(t, "the prompt to wait for the compaction", func() bool { return s.gate.waiting.Load() == 1 })
	if n := len(f.script.requests()); n != 2 {
		t.Fatalf("%d requests while compacting: the waiting prompt ran", n)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	last := roles(reqs[len(reqs)-1].Messages)
	if len(reqs) != 3 || !strings.HasPrefix(last[0], "user:Earlier parts") || last[len(last)-1] != "user:three" {
		t.Errorf("%d requests, last %q", len(reqs), last)
	}
}

func TestIdleCompaction(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  idleEnabled: true\n  idleThresholdTokens: 1000\n  idleTimeoutSeconds: 5\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 600), sayUsage("b", 1200))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	ctx := context.Background()
	if err := s.Prompt(ctx, "one"+longText(300), PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, due := s.Compactor().IdleDue(); due {
		t.Errorf("due at %d tokens", s.Compactor().ContextTokens())
	}
	if err := s.Prompt(ctx, "two"+longText(300), PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	wait, due := s.Compactor().IdleDue()
	if !due || wait != time.Minute || s.Compactor().ContextTokens() != 1210 {
		t.Errorf("due %v after %v at %d tokens", due, wait, s.Compactor().ContextTokens())
	}
	s.Compactor().RunIdle(ctx)
	got := evs.compactions(t)
	if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"idle","action":"context-full"}` || !strings.Contains(got[1], `"result":{"summary":"SUMMARY 1"`) {
		t.Errorf("events %v", got)
	}
	// No auto-continue after idle compaction; the context is now small.
	if n := len(f.script.requests()); n != 2 {
		t.Errorf("%d requests", n)
	}
	if _, due := s.Compactor().IdleDue(); due {
		t.Errorf("still due at %d tokens", s.Compactor().ContextTokens())
	}
}

// thinkOnly answers with thinking alone, stopped by the output limit: a
// reply without text.
func thinkOnly() turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartThinking()
		em.ThinkingDelta(i, "Let me think about the notes")
		em.EndThinking(i)
		em.SetStopReason(ai.StopReasonLength)
		em.Done(req.Model)
	}
}

// A failed automatic compaction tells why in auto_compaction_end's
// errorMessage, "Auto-compaction failed: …" after a turn over the
// threshold, "Context overflow recovery failed: …" after an overflow,
// whether the summary request failed or came back without text; nothing
// is stored and the turn is not continued or retried.
func TestAutoCompactionFailureIsReported(t *testing.T) {
	t.Parallel()
	empty := "Summarization failed: the model wrote an empty summary, so nothing was compacted; try again, or switch to another model (an answer without text usually ran out of output tokens while thinking)"
	for _, tc := range []struct {
		name  string
		sum   turnFunc
		third turnFunc // the answer to the third prompt
		want  string
	}{
		{"threshold, request fails", fail("invalid_request_error: the summary request was refused"), sayUsage("over the threshold", 3500),
			"Auto-compaction failed: Summarization failed: invalid_request_error: the summary request was refused"},
		{"threshold, empty summary", thinkOnly(), sayUsage("over the threshold", 3500), "Auto-compaction failed: " + empty},
		{"overflow, empty summary", thinkOnly(), fail(tooLong), "Context overflow recovery failed: " + empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, keyEnv)
			f.settings("compaction:\n  thresholdTokens: 3000\n  keepRecentTokens: 100\n")
			f.script.summarize = tc.sum
			f.script.add(sayUsage("a", 1000), sayUsage("b", 2000), tc.third, sayUsage("never", 500))
			reg := f.registry(f.config())
			s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
			s.Turn().SetAutoRetry(false)
			evs := record(s)
			ctx := context.Background()
			for _, p := range []string{"one" + longText(300), "two" + longText(300), "three"} {
				if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			got := evs.compactions(t)
			end, _ := json.Marshal(AutoCompactionEnd{Action: ActionContextFull, ErrorMessage: tc.want})
			if len(got) != 2 || got[1] != string(end) {
				t.Errorf("events:\n%s\nwant end %s", strings.Join(got, "\n"), end)
			}
			if n := len(f.script.requests()); n != 3 || len(compactionEntries(t, s.Store())) != 0 {
				t.Errorf("%d requests, %d compactions", n, len(compactionEntries(t, s.Store())))
			}
		})
	}
}

// sayEstimated answers text with a usage gopi estimated (the server
// reported none) of input prompt tokens.
func sayEstimated(text string, input int) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, text)
		em.EndText(i)
		em.SetUsage(ai.Usage{Input: input, Output: 10, TotalTokens: input + 10, Estimated: true})
		em.SetStopReason(ai.StopReasonStop)
		em.Done(req.Model)
	}
}

// An answer whose estimated context is over the window (a server that
// reports no usage) is not a silent overflow: the context is compacted as
// over the threshold, the agent auto-continues once, and Prompt (the SDK's
// too) succeeds with both answers in the conversation.
func TestEstimatedUsageOverTheWindowIsTheThreshold(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 1000), sayEstimated("the answer", 250_000), sayEstimated("nothing is left", 500))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	got := evs.compactions(t)
	if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"threshold","action":"context-full"}` {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
	var answers []string
	for _, m := range s.Messages() {
		if a, ok := m.(*ai.AssistantMessage); ok {
			answers = append(answers, a.Text())
		}
	}
	if !slices.Equal(answers, []string{"the answer", "nothing is left"}) {
		t.Errorf("answers the model sees %q", answers)
	}
}

// A complete answer reporting more input than the window (a server that
// truncated silently) stays the turn's answer: the context is compacted,
// and with no failed turn to retry, Prompt succeeds without another
// request.
func TestSilentOverflowKeepsTheAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 100\n")
	f.script.summarize = summaries()
	f.script.add(sayUsage("a", 1000), sayUsage("the answer", 250_000))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	got := evs.compactions(t)
	if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"overflow","action":"context-full"}` ||
		!strings.HasSuffix(got[1], `"aborted":false,"willRetry":false}`) {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
	if n := len(f.script.requests()); n != 2 {
		t.Errorf("%d requests", n)
	}
	if s.LastAssistantText() != "the answer" {
		t.Errorf("last answer %q", s.LastAssistantText())
	}
}

// retry.maxRetries 0 means no retry, for the summary requests of a
// compaction as for the turns: one overloaded answer fails the compaction.
func TestCompactSummaryNotRetriedWithZeroMaxRetries(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.settings("compaction:\n  keepRecentTokens: 100\nretry:\n  maxRetries: 0\n  baseDelayMs: 1\n")
	var mu sync.Mutex
	summaries := 0
	f.script.summarize = func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		mu.Lock()
		summaries++
		mu.Unlock()
		fail("overloaded_error: Overloaded")(ctx, req, em)
	}
	f.script.add(sayUsage("a", 500), sayUsage("b", 900))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	for _, p := range []string{"one" + longText(300), "two" + longText(300)} {
		if err := s.Prompt(context.Background(), p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Compactor().Compact(context.Background(), ""); err == nil || err.Error() != "Summarization failed: overloaded_error: Overloaded" {
		t.Errorf("error: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if summaries != 1 {
		t.Errorf("%d summary requests: the failure was retried", summaries)
	}
}
