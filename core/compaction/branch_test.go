package compaction

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

func ids(entries []*session.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.ID)
	}
	return out
}

// A fork at a1: the old leaf a3 (after u2, a2, u3) and the target b1.
func TestCollectBranch(t *testing.T) {
	b := newBuilder(t)
	b.user("u1", "start")
	b.assistant("a1", "ok")
	b.user("u2", "left branch")
	b.assistant("a2", "sure")
	b.user("u3", "more")
	b.assistant("a3", "done")
	old := b.path()
	if err := b.m.Branch(b.ids["a1"]); err != nil {
		t.Fatal(err)
	}
	b.user("b1", "other branch")
	target := b.path()

	got, common := CollectBranch(old, target)
	if common != b.ids["a1"] || !slices.Equal(ids(got), []string{b.ids["u2"], b.ids["a2"], b.ids["u3"], b.ids["a3"]}) {
		t.Errorf("fork: common %s, entries %v", common, ids(got))
	}
	// Back to an ancestor of the old leaf: only what lies after it.
	got, common = CollectBranch(old, b.m.Path(b.ids["u2"]))
	if common != b.ids["u2"] || !slices.Equal(ids(got), []string{b.ids["a2"], b.ids["u3"], b.ids["a3"]}) {
		t.Errorf("ancestor: common %s, entries %v", common, ids(got))
	}
	// Nothing in common (a new root, or no target path): the whole path.
	got, common = CollectBranch(old, nil)
	if common != "" || len(got) != len(old) {
		t.Errorf("no common entry: %q, %d entries", common, len(got))
	}
	// From a null leaf: nothing.
	if got, common := CollectBranch(nil, target); len(got) != 0 || common != "" {
		t.Errorf("null leaf: %v %q", ids(got), common)
	}
}

func TestPrepareBranch(t *testing.T) {
	b := newBuilder(t)
	b.user("u1", words(50))
	rc := b.call("read", map[string]any{"path": "a.go"})
	b.assistant("a1", words(50), rc)
	b.result("r1", rc, words(500))
	b.compaction("c1", words(40), "u1", "")
	ec := b.call("edit", map[string]any{"path": "b.go"})
	b.assistant("a2", words(50), ec)
	b.result("r2", ec, "ok")
	b.name("bs", b.ok(b.m.BranchWithSummary(b.ids["r2"], "earlier branch", map[string]any{"readFiles": []string{"c.go"}, "modifiedFiles": []string{"d.go"}}, false)))
	b.name("ext", b.ok(b.m.BranchWithSummary(b.ids["bs"], "from an extension", map[string]any{"readFiles": []string{"x.go"}}, true)))
	b.user("u2", words(50))
	entries := b.path()
	c := exact()

	all := PrepareBranch(entries, 0, c)
	var roles []string
	for _, m := range all.Messages {
		roles = append(roles, string(m.MessageRole()))
	}
	want := []string{"user", "assistant", "compactionSummary", "assistant", "branchSummary", "branchSummary", "user"}
	if !slices.Equal(roles, want) {
		t.Errorf("no budget: %v, want %v (tool results left out)", roles, want)
	}
	d := all.FileOps.Lists()
	if !slices.Equal(d.ReadFiles, []string{"a.go", "c.go"}) || !slices.Equal(d.ModifiedFiles, []string{"b.go", "d.go"}) {
		t.Errorf("files %+v (the extension's summary does not count)", d)
	}

	// A budget for about the newest three messages: the newest are kept,
	// and the file lists still cover the whole branch.
	last3 := 0
	for _, m := range all.Messages[len(all.Messages)-3:] {
		last3 += c.Count(m)
	}
	some := PrepareBranch(entries, last3+5, c)
	if len(some.Messages) != 3 || some.Messages[2] != all.Messages[6] || some.Tokens > last3+5 {
		t.Errorf("budget %d: %d messages, %d tokens", last3+5, len(some.Messages), some.Tokens)
	}
	if !slices.Equal(some.FileOps.Lists().ReadFiles, d.ReadFiles) {
		t.Errorf("budget: files %+v", some.FileOps.Lists())
	}

	// A compaction that does not fit is still taken while under 90% of
	// the budget.
	b2 := newBuilder(t)
	b2.user("u1", "x")
	b2.compaction("c", words(300), "u1", "")
	b2.user("u2", words(20))
	p := PrepareBranch(b2.path()[1:], 100, c)
	if len(p.Messages) != 2 || p.Messages[0].MessageRole() != message.RoleCompactionSummary {
		t.Errorf("large compaction: %d messages", len(p.Messages))
	}
	b3 := newBuilder(t)
	b3.user("u1", words(300))
	b3.user("u2", words(20))
	if p := PrepareBranch(b3.path(), 100, c); len(p.Messages) != 1 {
		t.Errorf("a large plain message is not taken: %d messages", len(p.Messages))
	}
}

func TestBranchBudget(t *testing.T) {
	for _, c := range []struct {
		s      BranchSettings
		window int
		want   int
	}{
		{BranchSettings{}, 200000, 200000 - 16384},
		{BranchSettings{ReserveTokens: 50000}, 200000, 150000},
		{BranchSettings{}, 0, 128000 - 16384},
		{BranchSettings{ReserveTokens: 300000}, 200000, 1},
	} {
		if got := c.s.Budget(c.window); got != c.want {
			t.Errorf("%+v window %d: %d, want %d", c.s, c.window, got, c.want)
		}
	}
}

func TestGenerateBranchSummary(t *testing.T) {
	b := newBuilder(t)
	b.user("u1", "Try the other parser")
	rc := b.call("read", map[string]any{"path": "parse.go"})
	b.assistant("a1", "Reading it.", rc)
	b.result("r1", rc, "package parse")
	b.assistant("a2", "It does not handle tabs.")
	p := PrepareBranch(b.path(), 1000, exact())
	f := newFake()
	f.answers[PurposeBranch] = "## Objective\nTry the other parser.\n"
	res, err := GenerateBranchSummary(context.Background(), p, f.summarize, BranchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req := f.request(PurposeBranch)
	if req == nil || req.SystemPrompt != SystemPrompt || req.MaxTokens != 2048 ||
		!strings.HasPrefix(req.Prompt, "<conversation>\nUser: Try the other parser") || !strings.HasSuffix(req.Prompt, branchInstructions) ||
		strings.Contains(req.Prompt, "package parse") {
		t.Fatalf("request %+v", req)
	}
	want := branchPreamble + "## Objective\nTry the other parser.\n\n<read-files>\nparse.go\n</read-files>"
	if res.Summary != want || !slices.Equal(res.Details.ReadFiles, []string{"parse.go"}) || len(res.Details.ModifiedFiles) != 0 {
		t.Errorf("result %q %+v", res.Summary, res.Details)
	}

	// Custom instructions replace the default ones.
	f = newFake()
	f.answers[PurposeBranch] = "short"
	if _, err := GenerateBranchSummary(context.Background(), p, f.summarize, BranchOptions{CustomInstructions: "One line only."}); err != nil {
		t.Fatal(err)
	}
	if r := f.request(PurposeBranch); !strings.HasSuffix(r.Prompt, "</conversation>\n\nOne line only.") {
		t.Errorf("custom instructions: %q", r.Prompt)
	}

	// No messages: a fixed text, no request.
	f = newFake()
	res, err = GenerateBranchSummary(context.Background(), &BranchPreparation{FileOps: NewFileOps()}, f.summarize, BranchOptions{})
	if err != nil || res.Summary != emptyBranch || len(f.reqs) != 0 {
		t.Errorf("empty branch: %+v %v (%d requests)", res, err, len(f.reqs))
	}

	// Failures: the model's error, an empty answer, a cancelled context.
	f = newFake()
	f.fail[PurposeBranch] = errors.New("overloaded")
	if _, err := GenerateBranchSummary(context.Background(), p, f.summarize, BranchOptions{}); err == nil || err.Error() != "Branch summarization failed: overloaded" {
		t.Errorf("failure: %v", err)
	}
	f = newFake()
	f.answers[PurposeBranch] = "  \n"
	if _, err := GenerateBranchSummary(context.Background(), p, f.summarize, BranchOptions{}); !errors.Is(err, ErrEmptySummary) {
		t.Errorf("empty answer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := GenerateBranchSummary(ctx, p, newFake().summarize, BranchOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
