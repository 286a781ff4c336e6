package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// entryOf returns the id of the user message with text, or of the
// assistant message with text.
func entryOf(t *testing.T, s *Session, text string) string {
	t.Helper()
	for _, e := range s.Store().Entries() {
		switch m := e.Message.(type) {
		case *ai.UserMessage:
			if userTexts([]ai.Message{m})[0] == text {
				return e.ID
			}
		case *ai.AssistantMessage:
			if m.Text() == text {
				return e.ID
			}
		}
	}
	t.Fatalf("no message %q", text)
	return ""
}

// treeFixture is a session with two exchanges (q1/a1, q2/a2).
func treeFixture(t *testing.T, hooks ...*agent.Hooks) (*fixture, *Session) {
	f := newFixture(t, keyEnv)
	f.script.add(say("a1"), say("a2"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, Hooks: hooks})
	for _, q := range []string{"q1", "q2"} {
		if err := s.Prompt(context.Background(), q, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return f, s
}

// /tree: picking a user message puts the leaf on its parent and returns
// the text; the next prompt grows a second branch in the same file;
// going back to the first branch with a summary stores a branch_summary
// entry at the new position (fromId, details, file tags) written from the
// branch that was left, and the model sees it next.
func TestNavigateTree(t *testing.T) {
	t.Parallel()
	f, s := treeFixture(t)
	ctx := context.Background()
	file := s.SessionFile()
	q2, a2 := entryOf(t, s, "q2"), entryOf(t, s, "a2")

	res, err := s.Tree().Navigate(ctx, q2, NavigateOptions{})
	if err != nil || res.EditorText != "q2" || res.Cancelled || res.SummaryEntry != nil {
		t.Fatalf("navigate to q2: %+v %v", res, err)
	}
	if leaf := s.Store().Leaf(); leaf.ParentID == "" || s.Store().Entry(q2).ParentID != leaf.ID {
		t.Fatalf("leaf %s is not q2's parent", leaf.ID)
	}
	if got := roles(s.Messages()); !slices.Equal(got, []string{"user:q1", "assistant:a1"}) {
		t.Fatalf("context %q", got)
	}
	f.script.add(callTool("c1", "read", `{"path":"notes.txt"}`), say("other answer"))
	if err := os.WriteFile(f.project+"/notes.txt", []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Prompt(ctx, "q2 again", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if s.SessionFile() != file {
		t.Fatal("the file changed")
	}

	// Back to a2 with a summary of the branch "q2 again".
	f.script.summarize = func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		say("## Objective\nAsk q2 again.")(ctx, req, em)
	}
	res, err = s.Tree().Navigate(ctx, a2, NavigateOptions{Summarize: true})
	if err != nil || res.EditorText != "" || res.SummaryEntry == nil {
		t.Fatalf("navigate to a2: %+v %v", res, err)
	}
	f.script.mu.Lock()
	sums := f.script.sums
	f.script.mu.Unlock()
	if len(sums) != 1 {
		t.Fatalf("%d summary requests", len(sums))
	}
	prompt := userTexts(sums[0].Messages)[0]
	if !strings.HasPrefix(prompt, "<conversation>\nUser: q2 again") || !strings.Contains(prompt, "Assistant: other answer") ||
		strings.Contains(prompt, "q1") || strings.Contains(prompt, "Tool result") || sums[0].MaxTokens != 2048 {
		t.Errorf("summary request: %q (max %d)", prompt, sums[0].MaxTokens)
	}
	e := res.SummaryEntry
	if e.Type != session.TypeBranchSummary || e.ParentID != a2 || e.BranchSummary.FromID != a2 || e.BranchSummary.FromExtension ||
		!strings.Contains(e.BranchSummary.Summary, "## Objective\nAsk q2 again.") || !strings.HasSuffix(e.BranchSummary.Summary, "<read-files>\nnotes.txt\n</read-files>") ||
		s.Store().LeafID() != e.ID {
		t.Errorf("summary entry %+v %+v", e, e.BranchSummary)
	}
	var d compaction.Details
	if err := json.Unmarshal(e.BranchSummary.Details, &d); err != nil || !slices.Equal(d.ReadFiles, []string{"notes.txt"}) || d.ModifiedFiles == nil {
		t.Errorf("details %s", e.BranchSummary.Details)
	}
	f.script.add(say("a3"))
	if err := s.Prompt(ctx, "q3", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	got := roles(reqs[len(reqs)-1].Messages)
	if len(got) != 6 || got[3] != "assistant:a2" || !strings.HasPrefix(got[4], "user:The user returned to an earlier point") || got[5] != "user:q3" {
		t.Errorf("request after the move %q", got)
	}
	// The file holds it: a resumed session sees the same.
	s.Close()
	m, err := session.Open(file, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := roles(m.BuildContext().Messages); len(got) != 7 || got[6] != "assistant:a3" {
		t.Errorf("resumed %q", got)
	}
}

// Picking the first user message leaves the leaf null: the next prompt
// starts a new root. Picking a custom message works like a user message;
// picking the leaf does nothing.
func TestNavigateToRootAndCustomMessage(t *testing.T) {
	t.Parallel()
	f, s := treeFixture(t)
	ctx := context.Background()
	if err := s.SendCustomMessage(ctx, &message.Custom{CustomType: "note", Content: message.PlainText("remember this"), Display: true}, CustomOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Record(session.CustomMessage{CustomType: "ext", Content: message.PlainText("an extension's"), Display: true}); err != nil {
		t.Fatal(err)
	}
	ext := s.Store().Leaf()
	remember := s.Store().Entry(ext.ParentID)
	for _, c := range []struct {
		e    *session.Entry
		want string
	}{{remember, "remember this"}, {ext, "an extension's"}} {
		res, err := s.Tree().Navigate(ctx, c.e.ID, NavigateOptions{})
		if err != nil || res.EditorText != c.want || s.Store().LeafID() != c.e.ParentID {
			t.Fatalf("custom message %s: %+v %v", c.e.Type, res, err)
		}
	}
	if res, err := s.Tree().Navigate(ctx, s.Store().LeafID(), NavigateOptions{}); err != nil || res != (NavigateResult{}) {
		t.Fatalf("the leaf: %+v %v", res, err)
	}
	q1 := s.Store().Entry(entryOf(t, s, "q1"))
	res, err := s.Tree().Navigate(ctx, q1.ID, NavigateOptions{})
	if err != nil || res.EditorText != "q1" || s.Store().LeafID() != q1.ParentID || len(s.Messages()) != 0 {
		t.Fatalf("first message: %+v %v, leaf %q", res, err, s.Store().LeafID())
	}

	// A session whose first entry is the user message: the leaf becomes
	// null and the next prompt starts a new root.
	store := session.InMemory(f.project)
	for _, m := range []ai.Message{userMessage("root question", nil), &ai.AssistantMessage{Content: ai.ContentList{ai.Text("root answer")}, StopReason: ai.StopReasonStop}} {
		if _, err := store.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	reg := f.registry(f.config())
	s2 := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, Store: store})
	res, err = s2.Tree().Navigate(ctx, entryOf(t, s2, "root question"), NavigateOptions{})
	if err != nil || res.EditorText != "root question" || store.LeafID() != "" || len(s2.Messages()) != 0 {
		t.Fatalf("root message: %+v %v, leaf %q", res, err, store.LeafID())
	}
	f.script.add(say("fresh"))
	if err := s2.Prompt(ctx, "new start", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := len(store.Tree()); n != 2 {
		t.Errorf("%d roots", n)
	}
}

// Bad input: an unknown entry, a move during a run; a summary that fails,
// is aborted, or is asked for a session too short changes nothing.
func TestNavigateBadInput(t *testing.T) {
	t.Parallel()
	f, s := treeFixture(t)
	ctx := context.Background()
	leaf := s.Store().LeafID()
	snapshot := func() string {
		data, err := os.ReadFile(s.SessionFile())
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	before := snapshot()

	if _, err := s.Tree().Navigate(ctx, "nope1234", NavigateOptions{}); !errors.Is(err, session.ErrNotFound) || !strings.Contains(err.Error(), `"nope1234"`) {
		t.Errorf("unknown entry: %v", err)
	}

	// The summary fails.
	f.script.summarize = fail("overloaded_error: Overloaded")
	s.Turn().SetAutoRetry(false)
	_, err := s.Tree().Navigate(ctx, entryOf(t, s, "a1"), NavigateOptions{Summarize: true})
	if err == nil || err.Error() != "Branch summarization failed: overloaded_error: Overloaded" {
		t.Errorf("failed summary: %v", err)
	}
	// The summary is aborted.
	started := make(chan struct{}, 1)
	f.script.summarize = func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		started <- struct{}{}
		<-ctx.Done()
		em.Fail(ctx, req.Model, ctx.Err())
	}
	go func() {
		<-started
		s.Tree().AbortSummary()
	}()
	res, err := s.Tree().Navigate(ctx, entryOf(t, s, "a1"), NavigateOptions{Summarize: true})
	if err != nil || !res.Cancelled || !res.Aborted {
		t.Errorf("aborted summary: %+v %v", res, err)
	}
	if s.Store().LeafID() != leaf || snapshot() != before || len(s.Messages()) != 4 {
		t.Fatal("the session changed")
	}

	// During a run.
	hold := make(chan struct{})
	f.script.add(func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		select {
		case <-hold:
		case <-ctx.Done():
		}
		say("late")(ctx, req, em)
	})
	done := make(chan error, 1)
	go func() { done <- s.Prompt(ctx, "slow", PromptOptions{}) }()
	testwait.Until(t, "the run to stream", s.Turn().IsStreaming)
	if _, err := s.Tree().Navigate(ctx, entryOf(t, s, "a1"), NavigateOptions{}); !errors.Is(err, ErrWorking) {
		t.Errorf("during a run: %v", err)
	}
	if _, err := s.Tree().Branch(ctx, entryOf(t, s, "q2")); !errors.Is(err, ErrWorking) {
		t.Errorf("branch during a run: %v", err)
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// The session_before_tree hooks may cancel a move or supply the summary;
// session_tree reports the move.
func TestTreeHooks(t *testing.T) {
	var mu sync.Mutex
	var before []*compaction.TreePreparation
	var after []*compaction.TreeEvent
	cancel, supply := false, false
	h := &agent.Hooks{Name: "tree",
		SessionBeforeTree: func(ctx context.Context, ev *compaction.BeforeTreeEvent) (*compaction.BeforeTreeResult, error) {
			mu.Lock()
			before = append(before, ev.Preparation)
			mu.Unlock()
			switch {
			case cancel:
				return &compaction.BeforeTreeResult{Cancel: true}, nil
			case supply:
				return &compaction.BeforeTreeResult{Summary: &compaction.TreeSummary{Summary: "FROM THE HOOK", Details: map[string]int{"n": 1}}}, nil
			}
			return nil, nil
		},
		SessionTree: func(ctx context.Context, ev *compaction.TreeEvent) {
			mu.Lock()
			after = append(after, ev)
			mu.Unlock()
		}}
	broken := &agent.Hooks{Name: "broken", SessionBeforeTree: func(ctx context.Context, ev *compaction.BeforeTreeEvent) (*compaction.BeforeTreeResult, error) {
		panic("boom")
	}}
	f, s := treeFixture(t, broken, h)
	evs := record(s)
	ctx := context.Background()
	oldLeaf := s.Store().LeafID()
	a1, q2 := entryOf(t, s, "a1"), entryOf(t, s, "q2")

	cancel = true
	res, err := s.Tree().Navigate(ctx, a1, NavigateOptions{Summarize: true})
	if err != nil || !res.Cancelled || s.Store().LeafID() != oldLeaf || len(after) != 0 {
		t.Fatalf("cancelled: %+v %v", res, err)
	}
	p := before[0]
	if p.TargetID != a1 || p.OldLeafID != oldLeaf || p.CommonAncestorID != a1 || !p.UserWantsSummary ||
		len(p.EntriesToSummarize) == 0 || p.EntriesToSummarize[len(p.EntriesToSummarize)-1].ID != oldLeaf {
		t.Errorf("preparation %+v", p)
	}
	var hookErrors int
	evs.mu.Lock()
	for _, ev := range evs.evs {
		if he, ok := ev.(agent.HookError); ok && he.Event == "session_before_tree" && he.Hook == "broken" {
			hookErrors++
		}
	}
	evs.mu.Unlock()
	if hookErrors != 1 {
		t.Errorf("%d hook errors reported", hookErrors)
	}

	cancel, supply = false, true
	res, err = s.Tree().Navigate(ctx, q2, NavigateOptions{Summarize: true})
	if err != nil || res.SummaryEntry == nil || res.EditorText != "q2" {
		t.Fatalf("supplied: %+v %v", res, err)
	}
	bs := res.SummaryEntry.BranchSummary
	if bs.Summary != "FROM THE HOOK" || !bs.FromExtension || string(bs.Details) != `{"n":1}` || res.SummaryEntry.ParentID != a1 {
		t.Errorf("entry %+v", bs)
	}
	f.script.mu.Lock()
	n := len(f.script.sums)
	f.script.mu.Unlock()
	if n != 0 {
		t.Errorf("%d summary requests", n)
	}
	if len(after) != 1 || after[0].OldLeafID != oldLeaf || after[0].NewLeafID != res.SummaryEntry.ID || after[0].SummaryEntry != res.SummaryEntry || !after[0].FromExtension {
		t.Errorf("session_tree %+v", after)
	}
	// A supplied summary is not used when none was asked for.
	res, err = s.Tree().Navigate(ctx, oldLeaf, NavigateOptions{})
	if err != nil || res.SummaryEntry != nil || s.Store().LeafID() != oldLeaf || len(after) != 2 || after[1].SummaryEntry != nil {
		t.Errorf("without summary: %+v %v", res, err)
	}
}

// Labels: set, shown in the tree view and its labeled-only filter,
// cleared; an unknown entry is refused.
func TestLabelsAndTreeView(t *testing.T) {
	t.Parallel()
	_, s := treeFixture(t)
	q1 := entryOf(t, s, "q1")
	if err := s.Tree().SetLabel(q1, "  start  "); err != nil {
		t.Fatal(err)
	}
	rows := s.Tree().Rows(session.TreeQuery{Filter: session.FilterLabeledOnly})
	if len(rows) != 1 || rows[0].Entry.ID != q1 || rows[0].Label != "start" || rows[0].String() != "• [start] user: q1" {
		t.Fatalf("labeled-only %+v", rows)
	}
	if rows := s.Tree().Rows(session.TreeQuery{Filter: session.FilterUserOnly}); len(rows) != 2 {
		t.Errorf("user-only: %d rows", len(rows))
	}
	if err := s.Tree().SetLabel(q1, ""); err != nil {
		t.Fatal(err)
	}
	if rows := s.Tree().Rows(session.TreeQuery{Filter: session.FilterLabeledOnly}); len(rows) != 0 {
		t.Errorf("cleared label still shown: %+v", rows)
	}
	if err := s.Tree().SetLabel("nope", "x"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("unknown entry: %v", err)
	}
}
