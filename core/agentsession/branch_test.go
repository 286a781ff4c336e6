package agentsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/session"
)

// /branch from the second user message: a new file whose parentSession is
// the old one, holding the path up to just before that message plus a
// fresh label entry; the old file is left as it was. Branching from the
// first message starts an empty session linked the same way.
func TestBranchNewFile(t *testing.T) {
	f, s := treeFixture(t)
	ctx := context.Background()
	old := s.SessionFile()
	q1, q2 := entryOf(t, s, "q1"), entryOf(t, s, "q2")
	if err := s.Tree().SetLabel(q1, "start"); err != nil {
		t.Fatal(err)
	}
	oldData, _ := os.ReadFile(old)

	res, err := s.Tree().Branch(ctx, q2)
	if err != nil || res.Text != "q2" || res.Cancelled {
		t.Fatalf("branch: %+v %v", res, err)
	}
	file := s.SessionFile()
	if file == old || filepath.Dir(file) != filepath.Dir(old) || s.Store().Header().ParentSession != old {
		t.Fatalf("new file %s (parent %q), old %s", file, s.Store().Header().ParentSession, old)
	}
	if got := roles(s.Messages()); !slices.Equal(got, []string{"user:q1", "assistant:a1"}) {
		t.Errorf("context %q", got)
	}
	types := entryTypes(t, file)
	if types[len(types)-1] != "label" || strings.Count(strings.Join(types, " "), "message:user") != 1 {
		t.Errorf("new file entries %v", types)
	}
	if s.Store().Label(q1) != "start" {
		t.Error("the label was not carried over")
	}
	if data, _ := os.ReadFile(old); string(data) != string(oldData) {
		t.Error("the old file changed")
	}
	f.script.add(say("b2"))
	if err := s.Prompt(ctx, "q2 other", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := entryTypes(t, file); got[len(got)-1] != "message:assistant" {
		t.Errorf("after the prompt %v", got)
	}

	// From the first message (its parent is the thinking-level entry the
	// session starts with): the new file starts before it.
	res, err = s.Tree().Branch(ctx, entryOf(t, s, "q1"))
	if err != nil || res.Text != "q1" || len(s.Messages()) != 0 || s.Store().Header().ParentSession != file {
		t.Fatalf("branch from q1: %+v %v (%d messages)", res, err, len(s.Messages()))
	}
}

// Branching needs a user message; an unknown id or another entry fails and
// changes nothing. A session in memory branches in memory.
func TestBranchBadInputAndInMemory(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	f.script.add(say("a1"), say("a2"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	ctx := context.Background()
	for _, q := range []string{"q1", "q2"} {
		if err := s.Prompt(ctx, q, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	store := s.Store()
	if _, err := s.Tree().Branch(ctx, "nope"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := s.Tree().Branch(ctx, entryOf(t, s, "a1")); err == nil || !strings.Contains(err.Error(), "not a user message") {
		t.Errorf("assistant entry: %v", err)
	}
	if s.Store() != store || len(s.Messages()) != 4 {
		t.Fatal("the session changed")
	}
	res, err := s.Tree().Branch(ctx, entryOf(t, s, "q2"))
	if err != nil || res.Text != "q2" || s.Store() == store || s.Store().File() != "" || s.Store().Header().ParentSession != store.SessionID() {
		t.Fatalf("in memory: %+v %v", res, err)
	}
	if got := roles(s.Messages()); !slices.Equal(got, []string{"user:q1", "assistant:a1"}) {
		t.Errorf("context %q", got)
	}
}

// session_before_branch may cancel the branch or keep the conversation;
// session_branch reports it.
func TestBranchHooks(t *testing.T) {
	var cancel, skip bool
	var seen []string
	var branched []*agent.BranchEvent
	h := &agent.Hooks{Name: "branch",
		SessionBeforeBranch: func(ctx context.Context, ev *agent.BeforeBranchEvent) (*agent.BeforeBranchResult, error) {
			seen = append(seen, ev.EntryID)
			return &agent.BeforeBranchResult{Cancel: cancel, SkipConversationRestore: skip}, nil
		},
		SessionBranch: func(ctx context.Context, ev *agent.BranchEvent) { branched = append(branched, ev) }}
	_, s := treeFixture(t, h)
	ctx := context.Background()
	old := s.SessionFile()
	q2 := entryOf(t, s, "q2")

	cancel = true
	res, err := s.Tree().Branch(ctx, q2)
	if err != nil || !res.Cancelled || res.Text != "q2" || s.SessionFile() != old || len(branched) != 0 || !slices.Equal(seen, []string{q2}) {
		t.Fatalf("cancelled: %+v %v", res, err)
	}
	cancel, skip = false, true
	res, err = s.Tree().Branch(ctx, q2)
	if err != nil || res.Cancelled || s.SessionFile() == old {
		t.Fatalf("skip restore: %+v %v", res, err)
	}
	if got := roles(s.Messages()); len(got) != 4 {
		t.Errorf("the conversation was restored: %q", got)
	}
	if len(branched) != 1 || branched[0].PreviousSessionFile != old {
		t.Errorf("session_branch %+v", branched)
	}
}

// session_before_switch may cancel a new session or a switch (reason and
// target given); session_switch reports them. Switching to a missing file
// fails, to the current file changes nothing.
func TestSwitchHooksAndBadInput(t *testing.T) {
	t.Parallel()
	var cancel bool
	var before []agent.BeforeSwitchEvent
	var after []agent.SwitchEvent
	h := &agent.Hooks{Name: "switch",
		SessionBeforeSwitch: func(ctx context.Context, ev *agent.BeforeSwitchEvent) (*agent.BeforeSwitchResult, error) {
			before = append(before, *ev)
			return &agent.BeforeSwitchResult{Cancel: cancel}, nil
		},
		SessionSwitch: func(ctx context.Context, ev *agent.SwitchEvent) { after = append(after, *ev) }}
	_, s := treeFixture(t, h)
	ctx := context.Background()
	first := s.SessionFile()

	cancel = true
	if c, err := s.Tree().New(ctx, ""); err != nil || !c || s.SessionFile() != first {
		t.Fatalf("cancelled new session: %v %v", c, err)
	}
	cancel = false
	if c, err := s.Tree().New(ctx, first); err != nil || c || s.SessionFile() == first {
		t.Fatalf("new session: %v %v", c, err)
	}
	second := s.SessionFile()
	cancel = true
	if c, err := s.Tree().Switch(ctx, first); err != nil || !c || s.SessionFile() != second {
		t.Fatalf("cancelled switch: %v %v", c, err)
	}
	cancel = false
	if c, err := s.Tree().Switch(ctx, first); err != nil || c || s.SessionFile() != first || len(s.Messages()) != 4 {
		t.Fatalf("switch: %v %v", c, err)
	}
	want := []agent.BeforeSwitchEvent{{Reason: "new"}, {Reason: "new"}, {Reason: "resume", TargetSessionFile: first}, {Reason: "resume", TargetSessionFile: first}}
	if !slices.Equal(before, want) {
		t.Errorf("before: %+v", before)
	}
	if len(after) != 2 || after[0] != (agent.SwitchEvent{Reason: "new", PreviousSessionFile: first}) || after[1].Reason != "resume" {
		t.Errorf("after: %+v", after)
	}

	missing := filepath.Join(filepath.Dir(first), "missing.jsonl")
	if _, err := s.Tree().Switch(ctx, missing); err == nil || !strings.Contains(err.Error(), "no session file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("switching to a missing file created it")
	}
	n := len(before)
	if c, err := s.Tree().Switch(ctx, first); err != nil || c || len(before) != n || s.SessionFile() != first {
		t.Errorf("switch to the current file: %v %v", c, err)
	}
}
