package compaction

import (
	"fmt"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

func TestPlanPrune(t *testing.T) {
	// Tool results of about 10,000 tokens each, oldest first: bash, read,
	// bash, bash, skill, bash, bash, bash.
	tools := []string{"bash", "read", "bash", "bash", "skill", "bash", "bash", "bash"}
	b := newBuilder(t)
	b.user("u", "go")
	for i, name := range tools {
		c := b.call(name, map[string]any{"path": "x"})
		b.assistant("", "", c)
		b.result(fmt.Sprint("r", i), c, words(10000))
	}
	cnt := exact()
	n := cnt.Count(b.path()[b.index("r0")].Message)
	if n < 9000 || n > 11000 {
		t.Fatalf("a result counts %d tokens", n)
	}
	prunes, saved := PlanPrune(b.path(), DefaultPruneConfig, cnt, 77)
	// Newest first: r7 r6 r5 r4(skill) are protected (< 40k seen before
	// each); r3 and r2 are pruned, r1 (read) never, r0 is pruned.
	var got []string
	for _, p := range prunes {
		for name, id := range b.ids {
			if id == p.EntryID {
				got = append(got, name)
			}
		}
		if p.Text != PrunedNotice(n) || p.PrunedAt != 77 {
			t.Errorf("prune %+v", p)
		}
	}
	if fmt.Sprint(got) != "[r3 r2 r0]" {
		t.Errorf("pruned %v", got)
	}
	if want := 3 * (n - (len(PrunedNotice(n))+3)/4); saved != want {
		t.Errorf("saved %d, want %d", saved, want)
	}

	// Applied, the store keeps them pruned; a second plan finds nothing
	// left worth pruning.
	if err := b.m.PruneToolResults(prunes); err != nil {
		t.Fatal(err)
	}
	if p, s := PlanPrune(b.path(), DefaultPruneConfig, cnt, 78); p != nil || s != 0 {
		t.Errorf("pruned again: %v %d", p, s)
	}
	if r := b.path()[b.index("r3")].Message.(*ai.ToolResultMessage); r.PrunedAt != 77 || textOf(r.Content) != PrunedNotice(n) {
		t.Errorf("stored %+v", r)
	}
}

func TestPlanPruneNeedsTheMinimumSaving(t *testing.T) {
	b := newBuilder(t)
	b.user("u", "go")
	for i := range 6 {
		c := b.call("bash", nil)
		b.assistant("", "", c)
		b.result(fmt.Sprint("r", i), c, words(9000))
	}
	// 54k tokens of output: only ~14k beyond the protected 40k.
	if p, s := PlanPrune(b.path(), DefaultPruneConfig, exact(), 1); p != nil || s != 0 {
		t.Errorf("pruned %d entries for %d tokens", len(p), s)
	}
	cfg := DefaultPruneConfig
	cfg.MinimumSavings = 1000
	if p, _ := PlanPrune(b.path(), cfg, exact(), 1); len(p) != 1 {
		t.Errorf("with a lower minimum: %d prunes", len(p))
	}
}

func textOf(c ai.ContentList) string { return joinText(c, "") }

var _ = session.Prune{}
