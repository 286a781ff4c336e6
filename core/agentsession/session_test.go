package agentsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/resolve"
)

const keyEnv = "ANTHROPIC_API_KEY=test-key"

func TestPromptPersistsAndResumes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("first answer"), say("second answer"))
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "hello", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	path := s.SessionFile()
	if path == "" || !strings.HasPrefix(path, filepath.Join(f.home, ".gopi", "agent", "sessions")) {
		t.Fatalf("session file %q", path)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"model_change", "thinking_level_change", "message:user", "message:assistant"}
	if got := entryTypes(t, path); !slices.Equal(got, want) {
		t.Fatalf("entries %v, want %v", got, want)
	}

	// Resume without naming a model: the session's own is restored and the
	// next request carries the history.
	store, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s2 := f.open(Options{Config: cfg, Models: reg, Store: store, NoTitle: true})
	if m := s2.Agent().Model(); m == nil || m.ID != "claude-sonnet-4-5" {
		t.Fatalf("model not restored: %+v", m)
	}
	if err := s2.Prompt(context.Background(), "again", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	last := reqs[len(reqs)-1]
	if got := userTexts(last.Messages); !slices.Equal(got, []string{"hello", "again"}) || len(last.Messages) != 3 {
		t.Fatalf("resumed request carries %v (%d messages)", got, len(last.Messages))
	}
	s2.Close()
	got := entryTypes(t, path)
	if len(got) != 6 || got[4] != "message:user" || got[5] != "message:assistant" {
		t.Fatalf("after resume: %v (settings were written again?)", got)
	}
}

func TestNothingStoredWithoutAnAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Fail(nil, req.Model, errors.New("HTTP 401 Unauthorized: bad key"))
	})
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "hello", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if m := s.LastAssistant(); m == nil || m.StopReason != ai.StopReasonError {
		t.Fatalf("last assistant %+v", m)
	}
	// A failed answer is still an assistant message: the session is kept so
	// the user sees what happened when resuming.
	if _, err := os.Stat(s.SessionFile()); err != nil {
		t.Fatalf("session file: %v", err)
	}
}

func TestMissingModelOrKeySaysWhatToDo(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // no keys at all
	s := f.open(Options{NoTitle: true})
	err := s.Prompt(context.Background(), "hi", PromptOptions{})
	if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("no model: %v", err)
	}
	reg := f.registry(f.config())
	s = f.open(Options{Models: reg, Model: f.model(reg, "openai/gpt-5"), NoTitle: true})
	err = s.Prompt(context.Background(), "hi", PromptOptions{})
	if !errors.Is(err, ErrNoCredentials) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("no key: %v", err)
	}
	if len(f.script.requests()) != 0 {
		t.Fatal("a request was made without credentials")
	}
}

func TestModelSelectionOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "OPENAI_API_KEY=k")
	s := f.open(Options{NoTitle: true})
	if m := s.Agent().Model(); m == nil || m.Provider != "openai" {
		t.Fatalf("first model with a key: %+v", m)
	}
	// The settings' default role wins over "first with a key".
	if err := os.MkdirAll(filepath.Join(f.home, ".gopi", "agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.home, ".gopi", "agent", "config.yml"), []byte("modelRoles:\n  default: openai/gpt-5-mini:low\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = f.open(Options{NoTitle: true})
	if m := s.Agent().Model(); m == nil || m.ID != "gpt-5-mini" || s.Agent().Thinking() != ai.ThinkingLow {
		t.Fatalf("default role: %+v %s", m, s.Agent().Thinking())
	}
}

func TestPromptWhileStreaming(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	started := make(chan struct{})
	release := make(chan struct{})
	f.script.add(func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		close(started)
		<-release
		say("one")(ctx, req, em)
	}, say("two"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	done := make(chan error)
	go func() { done <- s.Prompt(context.Background(), "first", PromptOptions{}) }()
	<-started
	if err := s.Prompt(context.Background(), "second", PromptOptions{}); !errors.Is(err, agent.ErrBusy) {
		t.Fatalf("prompt while streaming: %v", err)
	}
	if err := s.Prompt(context.Background(), "second", PromptOptions{StreamingBehavior: DeliverFollowUp}); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := userTexts(s.Messages()); !slices.Equal(got, []string{"first", "second"}) {
		t.Fatalf("users %v", got)
	}
	if s.LastAssistantText() != "two" {
		t.Fatalf("last %q", s.LastAssistantText())
	}
}

func TestModelAndThinkingChangesAreRecorded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("a"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "q", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Model().Set(f.model(reg, "anthropic/claude-opus-4-1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Model().SetThinking(ai.ThinkingHigh); err != nil {
		t.Fatal(err)
	}
	if err := s.Model().SetThinking("loud"); err == nil {
		t.Fatal("bad level accepted")
	}
	path := s.SessionFile()
	s.Close()
	store, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s2 := f.open(Options{Models: reg, Store: store, NoTitle: true})
	if m := s2.Agent().Model(); m.ID != "claude-opus-4-1" || s2.Agent().Thinking() != ai.ThinkingHigh {
		t.Fatalf("restored %s %s", m.ID, s2.Agent().Thinking())
	}
}

func TestPersistErrorIsReported(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	f := newFixture(t, keyEnv)
	f.script.add(say("a"))
	dir := filepath.Join(f.home, "locked")
	if err := os.MkdirAll(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, SessionDir: dir})
	err := s.Prompt(context.Background(), "q", PromptOptions{})
	if err == nil || s.Err() == nil {
		t.Fatalf("write failure not reported: %v", err)
	}
}

// A preview queued by a tool forces a one-shot resolve call and steers a
// reminder into the next request.
func TestPreviewForcesResolve(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	var queue *resolve.Queue
	preview := &previewTool{queue: &queue}
	f.script.add(callTool("p1", "stage", `{}`), callTool("r1", "resolve", `{"action":"apply","reason":"looks right"}`), say("done"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, ExtraTools: []tool.Tool{preview}})
	queue = s.Tools().Services().Pending
	if err := s.Prompt(context.Background(), "change it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	second := reqs[1]
	if second.ToolChoice.ForcedTool() != "resolve" {
		t.Fatalf("second request's tool choice %+v", second.ToolChoice)
	}
	found := false
	for _, m := range second.Messages {
		if u, ok := m.(*ai.UserMessage); ok && strings.Contains(u.Content[0].(*ai.TextContent).Text, "resolve") {
			found = true
		}
	}
	if !found {
		t.Fatal("no reminder in the request after the preview")
	}
	if !preview.applied {
		t.Fatal("resolve did not apply the staged action")
	}
	if reqs[2].ToolChoice != nil {
		t.Fatalf("the forced choice was used again: %+v", reqs[2].ToolChoice)
	}
}

type previewTool struct {
	queue   **resolve.Queue // the session's, set once it is built
	applied bool
}

func (p *previewTool) Definition() tool.Definition {
	return tool.Definition{Name: "stage", Description: "stages a change", Parameters: tool.Object(nil)}
}

func (p *previewTool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	(*p.queue).Push(&resolve.Action{Label: "test change", SourceTool: "stage", Apply: func(ctx context.Context, reason string) (*tool.Result, error) {
		p.applied = true
		return tool.TextResult("applied", nil), nil
	}})
	return tool.TextResult("preview ready", nil), nil
}

func TestTitleIsGeneratedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("a"), say("b"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5")})
	if err := s.Prompt(context.Background(), "fix the login bug", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Prompt(context.Background(), "and the tests", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	path := s.SessionFile()
	s.Close()
	f.script.mu.Lock()
	n := len(f.script.titles)
	var smol string
	if n > 0 {
		smol = f.script.titles[0].Model.ID
	}
	f.script.mu.Unlock()
	if n != 1 || !strings.Contains(smol, "haiku") {
		t.Fatalf("%d title requests, model %q", n, smol)
	}
	store, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if store.Name() != "A short title" {
		t.Fatalf("title %q", store.Name())
	}
}

func TestNoTitleFromEnvironment(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv, "PI_NO_TITLE=1")
	f.script.add(say("a"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5")})
	if err := s.Prompt(context.Background(), "q", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if len(f.script.titles) != 0 {
		t.Fatal("PI_NO_TITLE ignored")
	}
}

func TestCustomMessages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("a"), say("b"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	next := &message.Custom{CustomType: "ext", Content: message.PlainText("context for later"), Display: true}
	if err := s.SendCustomMessage(ctx, next, CustomOptions{DeliverAs: DeliverNextTurn, TriggerTurn: true}); err != nil {
		t.Fatal(err)
	}
	if len(f.script.requests()) != 0 {
		t.Fatal("nextTurn triggered a turn")
	}
	if err := s.Prompt(ctx, "q", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := userTexts(f.script.requests()[0].Messages); !slices.Equal(got, []string{"q", "context for later"}) {
		t.Fatalf("first request %v", got)
	}
	trig := &message.Custom{CustomType: "ext", Content: message.PlainText("please continue"), Display: true}
	if err := s.SendCustomMessage(ctx, trig, CustomOptions{TriggerTurn: true}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.script.requests()); n != 2 {
		t.Fatalf("triggerTurn made %d requests", n)
	}
}

func TestBranchAndNavigate(t *testing.T) {
	f := newFixture(t, keyEnv)
	f.script.add(say("a1"), say("a2"), say("a3"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	for _, q := range []string{"q1", "q2"} {
		if err := s.Prompt(ctx, q, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var q2 string
	for _, e := range s.Store().Entries() {
		if u, ok := e.Message.(*ai.UserMessage); ok && u.Content[0].(*ai.TextContent).Text == "q2" {
			q2 = e.ID
		}
	}
	oldFile := s.SessionFile()
	nav, err := s.Tree().Navigate(ctx, q2, NavigateOptions{})
	if err != nil || nav.EditorText != "q2" {
		t.Fatalf("navigate: %+v %v", nav, err)
	}
	if got := userTexts(s.Messages()); !slices.Equal(got, []string{"q1"}) {
		t.Fatalf("after navigate %v", got)
	}
	if err := s.Prompt(ctx, "q2 again", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if s.SessionFile() != oldFile {
		t.Fatal("navigate changed the file")
	}
	br, err := s.Tree().Branch(ctx, q2)
	if err != nil || br.Text != "q2" {
		t.Fatalf("branch: %+v %v", br, err)
	}
	if s.SessionFile() == oldFile {
		t.Fatal("branch kept the file")
	}
	if got := userTexts(s.Messages()); !slices.Equal(got, []string{"q1"}) {
		t.Fatalf("after branch %v", got)
	}
}

func TestNewAndSwitchSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("a"), say("b"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	if err := s.Prompt(ctx, "first session", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	first := s.SessionFile()
	if _, err := s.Tree().New(ctx, first); err != nil {
		t.Fatal(err)
	}
	if len(s.Messages()) != 0 || s.Store().Header().ParentSession != first {
		t.Fatalf("new session: %d messages, parent %q", len(s.Messages()), s.Store().Header().ParentSession)
	}
	if _, err := s.Tree().Switch(ctx, first); err != nil {
		t.Fatal(err)
	}
	if got := userTexts(s.Messages()); !slices.Equal(got, []string{"first session"}) {
		t.Fatalf("switched %v", got)
	}
}

func TestCloseWaitsForNothingForever(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	block := make(chan struct{})
	defer close(block)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5")})
	// A title request that never answers must not hold Close.
	s.opts.Stream = func(ctx context.Context, req *ai.Request) *ai.Stream {
		em, st := ai.NewEmitter(req.Model)
		go func() {
			<-ctx.Done()
			em.Fail(ctx, req.Model, ctx.Err())
		}()
		return st
	}
	s.titleWait = 100 * time.Millisecond
	s.maybeTitle("hello")
	start := time.Now()
	s.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("Close took %s", d)
	}
}

// A models.yml provider whose apiKey names an unset variable: the messages
// name that variable, with or without --model.
func TestMissingModelsYmlKeyNamesTheVariable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := filepath.Join(f.home, ".gopi", "agent")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	yml := "providers:\n  mock:\n    baseUrl: http://127.0.0.1:9\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n"
	if err := os.WriteFile(filepath.Join(dir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := f.open(Options{NoTitle: true})
	if err := s.Prompt(context.Background(), "hi", PromptOptions{}); err == nil || !strings.Contains(err.Error(), "MOCK_KEY") {
		t.Errorf("no model: %v", err)
	}
	reg := f.registry(f.config())
	s = f.open(Options{Models: reg, Model: f.model(reg, "mock/mock-model"), NoTitle: true})
	if err := s.Prompt(context.Background(), "hi", PromptOptions{}); !errors.Is(err, ErrNoCredentials) || !strings.Contains(err.Error(), "MOCK_KEY") {
		t.Errorf("no key: %v", err)
	}
}

// A New that fails after taking the session file's run lock gives it
// back: the next attempt is not told the session is in use.
func TestFailedNewReleasesTheRunLock(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	cfg := f.config()
	o := StoreOptions(cfg, f.project, "")
	store, err := session.Create(o)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := f.tryOpen(Options{Config: cfg, Store: store, NoTitle: true, ToolNames: []string{"no-such-tool"}}); err == nil {
		t.Fatal("an unknown tool name was accepted")
	}
	l, err := session.LockRun(store.File())
	if err != nil {
		t.Fatalf("the run lock was kept: %v", err)
	}
	l.Release()
}
