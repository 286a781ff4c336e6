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

// Only tool results the model still sees are pruned and counted: after a
// compaction, those from its first kept entry on. Output summarised away
// stays as it is in the file (pruning it would save nothing).
func TestPlanPruneSkipsOutputBeforeTheCompaction(t *testing.T) {
	build := func(t *testing.T, remote bool) *builder {
		b := newBuilder(t)
		res := func(from, to int) {
			for i := from; i <= to; i++ {
				c := b.call("bash", nil)
				b.assistant("", "", c)
				b.result(fmt.Sprint("r", i), c, words(10000))
			}
		}
		b.user("u0", "go")
		res(0, 2) // summarised away
		b.user("u1", "go on")
		res(3, 4) // kept by the compaction
		c := session.Compaction{Summary: "S", FirstKeptEntryID: b.ids["u1"], TokensBefore: 100}
		if remote {
			// A provider's replacement history stands for the kept part.
			c.PreserveData = []byte(`{"openaiRemoteCompaction":{"provider":"openai","replacementHistory":[]}}`)
		}
		b.name("c", b.ok(b.m.Record(c)))
		b.user("u2", "more")
		res(5, 9)
		return b
	}
	names := func(b *builder, prunes []session.Prune) []string {
		var got []string
		for _, p := range prunes {
			for name, id := range b.ids {
				if id == p.EntryID {
					got = append(got, name)
				}
			}
		}
		return got
	}

	b := build(t, false)
	cnt := exact()
	n := cnt.Count(b.path()[b.index("r0")].Message)
	// Newest first: r9…r6 fill the protected 40k; r5, r4 and r3 (kept
	// by the compaction) are pruned; r2…r0 are not sent and stay.
	prunes, saved := PlanPrune(b.path(), DefaultPruneConfig, cnt, 5)
	if got := fmt.Sprint(names(b, prunes)); got != "[r5 r4 r3]" {
		t.Errorf("pruned %s", got)
	}
	if want := 3 * (n - (len(PrunedNotice(n))+3)/4); saved != want {
		t.Errorf("saved %d, want %d", saved, want)
	}

	// With a replacement history nothing before the compaction is sent:
	// only r5 is old enough, and too small a saving alone.
	b = build(t, true)
	if p, s := PlanPrune(b.path(), DefaultPruneConfig, cnt, 5); p != nil || s != 0 {
		t.Errorf("remote: pruned %v for %d tokens", names(b, p), s)
	}
	cfg := DefaultPruneConfig
	cfg.MinimumSavings = 1000
	if p, _ := PlanPrune(b.path(), cfg, cnt, 5); fmt.Sprint(names(b, p)) != "[r5]" {
		t.Errorf("remote, lower minimum: pruned %v", names(b, p))
	}
}
