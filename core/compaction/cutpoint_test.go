package compaction

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// exact counts o200k_base tokens without a ratio.
func exact() *Counter { return NewCounter("gpt-4o") }

func TestFindCutPoint(t *testing.T) {
	b := newBuilder(t)
	b.user("u1", words(100))
	b.assistant("a1", words(100))
	b.user("u2", words(100))
	c := b.call("bash", map[string]any{"command": "ls"})
	b.assistant("a2", words(10), c)
	b.result("r2", c, words(300))
	b.assistant("a3", words(100))
	b.modelChange("mc")
	b.label("lb", "u1")
	b.user("u3", words(50))
	b.assistant("a4", words(50))
	path := b.path()
	end := len(path)

	cnt := exact()
	tok := func(names ...string) int {
		n := 0
		for _, name := range names {
			n += cnt.Count(path[b.index(name)].Message)
		}
		return n
	}
	for _, tc := range []struct {
		name      string
		keep      int
		first     string
		turnStart string // "" for none
	}{
		// The newest messages reach the budget at u3: a clean cut, and the
		// model change and label before it are kept with it.
		{"cut at a user message keeps the metadata before it", tok("a4", "u3"), "mc", ""},
		// The budget is reached inside the tool result: the cut moves to
		// the next cut point after it, a3, which splits u2's turn.
		{"never at a tool result", tok("a4", "u3", "a3", "r2"), "a3", "u2"},
		// Reached at a2 (the call): cut there, its result follows it.
		{"at the assistant that made the call", tok("a4", "u3", "a3", "r2", "a2"), "a2", "u2"},
		{"everything fits: the first message", 100000, "u1", ""},
	} {
		cp := FindCutPoint(path, 0, end, tc.keep, exact())
		if path[cp.FirstKept].ID != b.ids[tc.first] {
			t.Errorf("%s: first kept is entry %d, want %s (%d)", tc.name, cp.FirstKept, tc.first, b.index(tc.first))
		}
		wantTS := -1
		if tc.turnStart != "" {
			wantTS = b.index(tc.turnStart)
		}
		if cp.TurnStart != wantTS || cp.SplitTurn != (wantTS >= 0) {
			t.Errorf("%s: turn start %d split %v, want %d", tc.name, cp.TurnStart, cp.SplitTurn, wantTS)
		}
	}

	// Only a range after a compaction is considered; without any cut
	// point the range start is kept.
	if cp := FindCutPoint(path, b.index("r2"), b.index("r2")+1, 10, exact()); cp.FirstKept != b.index("r2") || cp.SplitTurn {
		t.Errorf("range without cut points: %+v", cp)
	}
}

func TestCutPointStartsOfTurns(t *testing.T) {
	// A shell run and a custom_message entry start turns: cutting at them
	// is not a split.
	b := newBuilder(t)
	b.user("u1", words(400))
	b.assistant("a1", words(400))
	b.bash("sh", "make", words(100))
	b.assistant("a2", words(10))
	cp := FindCutPoint(b.path(), 0, len(b.path()), 100, exact())
	if cp.FirstKept != b.index("sh") || cp.SplitTurn {
		t.Errorf("bash: %+v", cp)
	}
	b.customMessage("cm", words(100))
	b.assistant("a3", words(10))
	cp = FindCutPoint(b.path(), 0, len(b.path()), 100, exact())
	if cp.FirstKept != b.index("cm") || cp.SplitTurn {
		t.Errorf("custom_message: %+v", cp)
	}
}

func TestPrepare(t *testing.T) {
	b := newBuilder(t)
	b.user("u1", "Read main.go please")
	rc := b.call("read", map[string]any{"path": "main.go"})
	b.assistant("a1", "Reading.", rc)
	b.result("r1", rc, words(200))
	ec := b.call("edit", map[string]any{"path": "util.go"})
	b.assistant("a2", "", ec)
	b.result("r2", ec, "ok")
	b.usage("a3", "Done.", ai.Usage{Input: 300, Output: 5})
	b.user("u2", words(200))
	b.usage("a4", "Sure.", ai.Usage{Input: 500, Output: 7, CacheRead: 100})
	s := Settings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 150}
	p, err := Prepare(b.path(), s, exact())
	if err != nil {
		t.Fatal(err)
	}
	if p.FirstKeptEntryID != b.ids["u2"] || p.SplitTurn || p.TokensBefore != 607 {
		t.Errorf("prepared %+v", p)
	}
	if len(p.MessagesToSummarize) != 6 || len(p.RecentMessages) != 2 || len(p.TurnPrefixMessages) != 0 {
		t.Errorf("%d summarised, %d kept, %d prefix", len(p.MessagesToSummarize), len(p.RecentMessages), len(p.TurnPrefixMessages))
	}
	if d := p.FileOps.Lists(); fmt.Sprint(d.ReadFiles, d.ModifiedFiles) != "[main.go] [util.go]" {
		t.Errorf("files %v", d)
	}

	// Compacting again right away: already compacted.
	b.compaction("c1", "S1", "u2", `{"readFiles":["old.go","util.go"],"modifiedFiles":["gone.go"]}`)
	if _, err := Prepare(b.path(), s, exact()); !errors.Is(err, ErrAlreadyCompacted) {
		t.Errorf("after a compaction: %v", err)
	}
	// A little more: what the first compaction kept (u2, a4) is all there
	// is to summarise; the cut stays after the compaction.
	b.user("u3", "hi")
	p, err = Prepare(b.path(), s, exact())
	if err != nil || p.FirstKeptEntryID != b.ids["u3"] || len(p.MessagesToSummarize) != 2 {
		t.Fatalf("small after a compaction: %v %+v", err, p)
	}
	// More again: the second compaction cuts after the first, summarises
	// what the first kept and what came since, builds on its summary, and
	// carries its files over.
	b.assistant("a5", words(300))
	b.user("u4", words(200))
	b.assistant("a6", "ok")
	p, err = Prepare(b.path(), s, exact())
	if err != nil {
		t.Fatal(err)
	}
	if p.PreviousSummary != "S1" || p.FirstKeptEntryID != b.ids["u4"] {
		t.Errorf("second: %+v", p)
	}
	if len(p.MessagesToSummarize) != 4 {
		t.Errorf("second compaction summarises %d messages, want u2, a4 (kept by the first), u3 and a5", len(p.MessagesToSummarize))
	}
	if d := p.FileOps.Lists(); fmt.Sprint(d.ReadFiles, d.ModifiedFiles) != "[old.go util.go] [gone.go]" {
		t.Errorf("carried files %v", d)
	}
}

// The provider's count is larger than ours (system prompt, tools): the
// budget of kept tokens shrinks by the same ratio.
func TestPrepareScalesTheBudget(t *testing.T) {
	b := newBuilder(t)
	b.user("u1", words(100))
	b.assistant("a1", words(100))
	b.user("u2", words(100))
	b.usage("a2", words(100), ai.Usage{Input: 4000, Output: 100})
	s := Settings{KeepRecentTokens: 1000}
	p, err := Prepare(b.path(), s, exact())
	if err != nil {
		t.Fatal(err)
	}
	// ~400 estimated vs 4000 reported: keep ~100 tokens, so the cut falls
	// on a2 (its turn is split).
	if p.FirstKeptEntryID != b.ids["a2"] || !p.SplitTurn || len(p.TurnPrefixMessages) != 1 {
		t.Errorf("prepared %+v", p)
	}
}

// Property: over random sessions (tool calls with several results,
// metadata anywhere, shell runs, extension messages, earlier compactions),
// a cut never falls on a tool result and never separates a tool call from
// its results; Prepare's parts are the path's messages in order.
func TestCutPointNeverSplitsToolPairs(t *testing.T) {
	splits, prepared := 0, 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		b := newBuilder(t)
		var firstOfLast string // a message after the latest compaction, for the next one
		n := 20 + rng.IntN(60)
		for i := 0; i < n; i++ {
			name := fmt.Sprint("e", i)
			switch k := rng.IntN(10); {
			case k < 3:
				b.user(name, words(1+rng.IntN(200)))
			case k < 6:
				var calls []*ai.ToolCall
				for range rng.IntN(4) {
					calls = append(calls, b.call([]string{"read", "bash", "edit"}[rng.IntN(3)], map[string]any{"path": fmt.Sprint("f", rng.IntN(5))}))
				}
				b.assistant(name, words(rng.IntN(100)), calls...)
				for j, c := range calls {
					if rng.IntN(4) == 0 {
						b.modelChange("")
					}
					b.result(fmt.Sprint(name, "r", j), c, words(1+rng.IntN(400)))
				}
			case k == 6:
				b.bash(name, "ls", words(rng.IntN(100)))
			case k == 7:
				b.customMessage(name, words(1+rng.IntN(50)))
			case k == 8:
				b.modelChange(name)
			default:
				if firstOfLast != "" && rng.IntN(3) == 0 {
					b.compaction(name, "summary", firstOfLast, "")
					firstOfLast = ""
					continue
				}
				b.user(name, words(5))
			}
			if firstOfLast == "" && b.path()[len(b.path())-1].Type == session.TypeMessage {
				firstOfLast = name
			}
		}
		path := b.path()
		start := 0
		for i, e := range path {
			if e.Type == session.TypeCompaction {
				start = i + 1
			}
		}
		keep := 1 + rng.IntN(3000)
		if start == len(path) {
			if _, err := Prepare(path, Settings{KeepRecentTokens: keep}, exact()); !errors.Is(err, ErrAlreadyCompacted) {
				t.Fatalf("seed %d: ends in a compaction: %v", seed, err)
			}
			continue
		}
		cp := FindCutPoint(path, start, len(path), keep, exact())
		checkCut(t, seed, path, start, cp)
		if cp.SplitTurn {
			splits++
		}

		p, err := Prepare(path, Settings{KeepRecentTokens: keep}, exact())
		if err != nil {
			if !errors.Is(err, ErrTooSmall) && !errors.Is(err, ErrAlreadyCompacted) {
				t.Fatalf("seed %d: %v", seed, err)
			}
			continue
		}
		prepared++
		all := append(append(append([]ai.Message(nil), p.MessagesToSummarize...), p.TurnPrefixMessages...), p.RecentMessages...)
		if want := append(previouslyKept(path, start-1), messagesOf(path[start:])...); len(all) != len(want) {
			t.Fatalf("seed %d: parts hold %d messages, the range %d", seed, len(all), len(want))
		}
		// The kept messages answer every call they contain, and every
		// result they hold has its call among them.
		calls := map[string]bool{}
		for _, m := range p.RecentMessages {
			switch m := m.(type) {
			case *ai.AssistantMessage:
				for _, c := range m.ToolCalls() {
					calls[c.ID] = true
				}
			case *ai.ToolResultMessage:
				if !calls[m.ToolCallID] {
					t.Fatalf("seed %d keep %d: kept result %s without its call", seed, keep, m.ToolCallID)
				}
			}
		}
	}
	// The sessions exercise both kinds of cut.
	if splits < 30 || prepared < 150 {
		t.Errorf("only %d split cuts and %d prepared compactions in 300 sessions", splits, prepared)
	}
	t.Logf("%d split cuts, %d prepared compactions", splits, prepared)
}

func checkCut(t *testing.T, seed uint64, path []*session.Entry, start int, cp CutPoint) {
	t.Helper()
	if cp.FirstKept < start || cp.FirstKept >= len(path) {
		t.Fatalf("seed %d: cut %d outside %d…%d", seed, cp.FirstKept, start, len(path))
	}
	if _, ok := path[cp.FirstKept].Message.(*ai.ToolResultMessage); ok {
		t.Fatalf("seed %d: cut at a tool result", seed)
	}
	// No call before the cut has its result after it.
	before := map[string]bool{}
	for _, e := range path[:cp.FirstKept] {
		if a, ok := e.Message.(*ai.AssistantMessage); ok {
			for _, c := range a.ToolCalls() {
				before[c.ID] = true
			}
		}
	}
	for _, e := range path[cp.FirstKept:] {
		if r, ok := e.Message.(*ai.ToolResultMessage); ok && before[r.ToolCallID] {
			t.Fatalf("seed %d: call %s summarised, its result kept", seed, r.ToolCallID)
		}
	}
	if cp.SplitTurn {
		if cp.TurnStart < start || cp.TurnStart >= cp.FirstKept || !startsTurn(path[cp.TurnStart]) {
			for i := max(0, cp.TurnStart-3); i < min(len(path), cp.FirstKept+3); i++ {
				t.Logf("%d %s %T", i, path[i].Type, path[i].Message)
			}
			t.Fatalf("seed %d: bad turn start %+v", seed, cp)
		}
	}
	if !cp.SplitTurn && cp.TurnStart != -1 {
		t.Fatalf("seed %d: turn start without a split: %+v", seed, cp)
	}
}
