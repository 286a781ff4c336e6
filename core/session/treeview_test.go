package session

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/internal/golden"
)

func toolCallMsg(text string, calls ...*ai.ToolCall) *ai.AssistantMessage {
	a := assistant(text)
	if text == "" {
		a.Content = nil
	}
	for _, c := range calls {
		a.Content = append(a.Content, c)
	}
	a.StopReason = ai.StopReasonToolUse
	return a
}

func toolResult(id, name, text string) *ai.ToolResultMessage {
	return &ai.ToolResultMessage{ToolCallID: id, ToolName: name, Content: ai.ContentList{ai.Text(text)}, Timestamp: 1760000000002}
}

// treeSession builds a session with forks, bookkeeping entries, a label,
// a compaction, a branch summary and a custom message; the leaf is on the
// second branch.
func treeSession(t *testing.T) (*Manager, map[string]string) {
	opts := testOptions(t)
	opts.Dir = ""
	m := newManager(opts)
	m.header = m.newHeader()
	ids := map[string]string{}
	add := func(name string) func(string, error) {
		return func(id string, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			ids[name] = id
		}
	}
	add("u1")(m.AppendMessage(user("Fix the crash in main.go\nwhen the input is empty")))
	add("a1")(m.AppendMessage(toolCallMsg("Let me look.", &ai.ToolCall{ID: "c1", Name: "read", Arguments: map[string]any{"path": "main.go", "offset": 10.0, "limit": 20.0}})))
	add("r1")(m.AppendMessage(toolResult("c1", "read", "package main")))
	add("a2")(m.AppendMessage(toolCallMsg("", &ai.ToolCall{ID: "c2", Name: "edit", Arguments: map[string]any{"path": "main.go"}})))
	add("r2")(m.AppendMessage(toolResult("c2", "edit", "ok")))
	add("a3")(m.AppendMessage(assistant("Fixed: main checks for empty input.")))
	add("model")(m.Record(ModelChange{Model: "anthropic/claude-opus-4-5", Role: ""}))
	add("u2")(m.AppendMessage(user("Now add a test")))
	add("a4")(m.AppendMessage(toolCallMsg("", &ai.ToolCall{ID: "c3", Name: "bash", Arguments: map[string]any{"command": "go test ./..."}})))
	add("r3")(m.AppendMessage(toolResult("c3", "bash", "ok")))
	add("a5")(m.AppendMessage(assistant("Added TestEmptyInput.")))
	if err := m.Branch(ids["a3"]); err != nil {
		t.Fatal(err)
	}
	add("think")(m.Record(ThinkingLevel("high")))
	add("sum")(m.BranchWithSummary(ids["think"], "The user asked for a test; I added TestEmptyInput.", nil, false))
	add("u3")(m.AppendMessage(user("Document the fix instead")))
	add("cm")(m.Record(CustomMessage{CustomType: "reminder", Content: message.PlainText("Keep the docs short."), Display: true}))
	add("a6")(m.AppendMessage(assistant("Documented in README.")))
	add("cust")(m.Record(CustomState("ext-state", map[string]int{"n": 1})))
	add("comp")(m.Record(Compaction{Summary: "s", FirstKeptEntryID: ids["u3"], TokensBefore: 12400}))
	add("bash")(m.AppendMessage(&message.BashExecution{Command: "git diff --stat", Output: "1 file"}))
	add("u4")(m.AppendMessage(user("Thanks")))
	add("label")(m.Record(Label{TargetID: ids["u1"], Label: "start"}))
	add("aborted")(m.AppendMessage(&ai.AssistantMessage{StopReason: ai.StopReasonAborted}))
	return m, ids
}

// rootsSession has two roots (the leaf was reset once) and a fork in the
// second.
func rootsSession(t *testing.T) *Manager {
	opts := testOptions(t)
	m := newManager(opts)
	m.header = m.newHeader()
	must[string](t)(m.AppendMessage(user("first topic")))
	must[string](t)(m.AppendMessage(assistant("first answer")))
	_ = m.Branch("")
	q := must[string](t)(m.AppendMessage(user("second topic")))
	must[string](t)(m.AppendMessage(assistant("answer A")))
	if err := m.Branch(q); err != nil {
		t.Fatal(err)
	}
	must[string](t)(m.AppendMessage(assistant("answer B")))
	must[string](t)(m.AppendMessage(user("more on B")))
	return m
}

func renderRows(rows []TreeRow) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// The tree views of two sessions under every filter, and a search, as
// golden text (go test -update rewrites testdata/tree/).
func TestTreeViewGolden(t *testing.T) {
	t.Parallel()
	branched, _ := treeSession(t)
	cases := []struct {
		name string
		m    *Manager
	}{{"branched", branched}, {"roots", rootsSession(t)}}
	for _, c := range cases {
		var b strings.Builder
		for _, f := range TreeFilters {
			fmt.Fprintf(&b, "## %s\n%s\n", f, renderRows(c.m.TreeRows(TreeQuery{Filter: f})))
		}
		fmt.Fprintf(&b, "## all, search \"MAIN go\"\n%s", renderRows(c.m.TreeRows(TreeQuery{Filter: FilterAll, Search: "MAIN go"})))
		golden.Check(t, filepath.Join("testdata", "tree", c.name+".txt"), b.String())
	}
}

func TestParseTreeFilter(t *testing.T) {
	t.Parallel()
	for _, f := range TreeFilters {
		if got, err := ParseTreeFilter(string(f)); err != nil || got != f {
			t.Errorf("ParseTreeFilter(%q) = %q, %v", f, got, err)
		}
	}
	if f, err := ParseTreeFilter(""); err != nil || f != FilterDefault {
		t.Errorf(`ParseTreeFilter("") = %q, %v`, f, err)
	}
	if _, err := ParseTreeFilter("tools"); err == nil || !strings.Contains(err.Error(), "no-tools") {
		t.Errorf("unknown filter: %v", err)
	}
}

// randomTree builds a random session: messages of every kind, tool calls
// with their results, bookkeeping entries, labels, jumps back to earlier
// entries and new roots.
func randomTree(t *testing.T, r *rand.Rand) *Manager {
	opts := testOptions(t)
	opts.Dir = ""
	m := newManager(opts)
	m.header = m.newHeader()
	var ids []string
	add := func(id string, err error) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	calls := 0
	for range 5 + r.IntN(60) {
		switch r.IntN(14) {
		case 0, 1, 2:
			add(m.AppendMessage(user(fmt.Sprintf("question %d about main", r.IntN(100)))))
		case 3, 4:
			add(m.AppendMessage(assistant(fmt.Sprintf("answer %d", r.IntN(100)))))
		case 5, 6:
			calls++
			id := fmt.Sprintf("call%d", calls)
			text := ""
			if r.IntN(2) == 0 {
				text = "calling"
			}
			add(m.AppendMessage(toolCallMsg(text, &ai.ToolCall{ID: id, Name: "read", Arguments: map[string]any{"path": "main.go"}})))
			add(m.AppendMessage(toolResult(id, "read", "contents")))
		case 7:
			add(m.Record(ModelChange{Model: "p/m", Role: ""}))
		case 8:
			add(m.Record(CustomMessage{CustomType: "note", Content: message.PlainText("a note")}))
		case 9:
			if len(ids) > 0 {
				add(m.Record(Label{TargetID: ids[r.IntN(len(ids))], Label: []string{"", "mark", "other"}[r.IntN(3)]}))
			}
		case 10:
			if len(ids) > 0 {
				if err := m.Branch(ids[r.IntN(len(ids))]); err != nil {
					t.Fatal(err)
				}
			}
		case 11:
			if r.IntN(3) == 0 {
				_ = m.Branch("")
			}
		case 12:
			if len(ids) > 0 {
				add(m.BranchWithSummary(ids[r.IntN(len(ids))], "summary", nil, false))
			}
		case 13:
			add(m.AppendMessage(&ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: "boom"}))
		}
	}
	return m
}

// isSubsequence reports whether every row of sub appears in all, in order.
func isSubsequence(sub, all []TreeRow) bool {
	i := 0
	for _, r := range all {
		if i < len(sub) && sub[i].Entry == r.Entry {
			i++
		}
	}
	return i == len(sub)
}

// Properties of the tree view over random sessions: every entry once,
// parents first, the active path marked exactly, indentation never
// shrinking from parent to child, each filter a subsequence of the wider
// ones (user-only ⊆ no-tools ⊆ default ⊆ all), labelled-only exactly the
// visible labelled entries, the leaf always shown, searches keeping only
// matching rows.
func TestTreeViewProperties(t *testing.T) {
	t.Parallel()
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		m := randomTree(t, r)
		leaf := m.LeafID()
		rows := FlattenTree(m.Tree(), leaf)
		entries := m.Entries()
		if len(rows) != len(entries) {
			t.Fatalf("seed %d: %d rows for %d entries", seed, len(rows), len(entries))
		}
		pos := map[string]int{}
		for i, row := range rows {
			if _, dup := pos[row.Entry.ID]; dup {
				t.Fatalf("seed %d: %s twice", seed, row.Entry.ID)
			}
			pos[row.Entry.ID] = i
			if n := utf8.RuneCountInString(row.Prefix()); n != 3*row.Indent {
				t.Fatalf("seed %d: prefix %q for indent %d", seed, row.Prefix(), row.Indent)
			}
		}
		active := map[string]bool{}
		for _, e := range m.Path("") {
			active[e.ID] = true
		}
		for _, row := range rows {
			e := row.Entry
			if p, ok := pos[e.ParentID]; ok {
				if p >= pos[e.ID] {
					t.Fatalf("seed %d: %s before its parent", seed, e.ID)
				}
				if rows[p].Indent > row.Indent {
					t.Fatalf("seed %d: %s indented less than its parent", seed, e.ID)
				}
			}
			if row.Active != active[e.ID] || row.Leaf != (e.ID == leaf && leaf != "") {
				t.Fatalf("seed %d: %s active %v leaf %v", seed, e.ID, row.Active, row.Leaf)
			}
		}
		if leaf != "" && !rows[0].Active {
			t.Fatalf("seed %d: the first row is not on the active path", seed)
		}

		view := map[TreeFilter][]TreeRow{}
		for _, f := range TreeFilters {
			view[f] = m.TreeRows(TreeQuery{Filter: f})
			if !isSubsequence(view[f], rows) {
				t.Fatalf("seed %d: %s is not in layout order", seed, f)
			}
		}
		for _, pair := range [][2]TreeFilter{{FilterUserOnly, FilterNoTools}, {FilterNoTools, FilterDefault}, {FilterDefault, FilterAll}, {FilterLabeledOnly, FilterAll}} {
			if !isSubsequence(view[pair[0]], view[pair[1]]) {
				t.Fatalf("seed %d: %s ⊄ %s", seed, pair[0], pair[1])
			}
		}
		for _, row := range view[FilterUserOnly] {
			if _, ok := row.Entry.Message.(*ai.UserMessage); !ok {
				t.Fatalf("seed %d: user-only shows %s", seed, row.Kind)
			}
		}
		for _, row := range view[FilterNoTools] {
			if row.Kind == "toolResult" || !isConversation(row.Entry) {
				t.Fatalf("seed %d: no-tools shows %s", seed, row.Kind)
			}
		}
		labelled := 0
		for _, row := range view[FilterAll] {
			if row.Label != "" {
				labelled++
			}
		}
		if len(view[FilterLabeledOnly]) != labelled {
			t.Fatalf("seed %d: labeled-only has %d rows, all has %d labelled", seed, len(view[FilterLabeledOnly]), labelled)
		}
		if leaf != "" {
			for _, f := range []TreeFilter{FilterAll, FilterDefault} {
				if f == FilterDefault && !isConversation(m.Entry(leaf)) {
					continue
				}
				if !slices.ContainsFunc(view[f], func(r TreeRow) bool { return r.Leaf }) {
					t.Fatalf("seed %d: %s hides the leaf", seed, f)
				}
			}
		}
		for _, q := range []string{"main", "ANSWER 1", "read main.go", "zzz"} {
			found := m.TreeRows(TreeQuery{Filter: FilterAll, Search: q})
			if !isSubsequence(found, view[FilterAll]) {
				t.Fatalf("seed %d: search %q not within all", seed, q)
			}
			for _, row := range found {
				for _, w := range strings.Fields(strings.ToLower(q)) {
					if !strings.Contains(strings.ToLower(searchText(row)), w) {
						t.Fatalf("seed %d: search %q kept %q", seed, q, row.Text)
					}
				}
			}
		}
	}
}

// BenchmarkTreeRows lays out and filters a 10,000-entry session with a
// fork every 50 entries (the /tree selector opening on a long session).
func BenchmarkTreeRows(b *testing.B) {
	m := InMemory("/p")
	var ids []string
	for i := range 10000 {
		var msg ai.Message = user(fmt.Sprintf("question %d about the parser", i))
		if i%2 == 1 {
			msg = assistant(fmt.Sprintf("answer %d", i))
		}
		id, err := m.AppendMessage(msg)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
		if i%50 == 49 {
			if err := m.Branch(ids[i-10]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		if rows := m.TreeRows(TreeQuery{Filter: FilterDefault, Search: "parser 99"}); len(rows) == 0 {
			b.Fatal("no rows")
		}
	}
}

func TestDescribeToolCallEdit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "a.go", "edits": []any{}}, "[edit: a.go]"},
		{map[string]any{"file": "v.go", "steps": []any{}}, "[edit: v.go]"},
		{map[string]any{"input": "@@ greet.go\n= 5aw..5aw\n~x\n@@ b.go\n+ 1aa\n~y\n@@ greet.go\n"}, "[edit: greet.go, b.go]"},
		{map[string]any{"input": "*** Begin Patch\n*** Update File: a.txt\n@@ func f\n-x\n+y\n*** Add File: b.txt\n+new\n*** End Patch\n"}, "[edit: a.txt, b.txt]"},
		{map[string]any{}, "[edit: ]"},
	} {
		if got := DescribeToolCall(&ai.ToolCall{Name: "edit", Arguments: tc.args}); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.args, got, tc.want)
		}
	}
}

// An ssh call is its host and command, as omp's "[host] $ command".
func TestDescribeToolCallSSH(t *testing.T) {
	t.Parallel()
	if got := DescribeToolCall(&ai.ToolCall{Name: "eval", Arguments: map[string]any{"input": "*** Cell py:\"load\" t:5s\nx = 1\n*** Cell js:'sum'\ny"}}); got != "[eval: load, sum]" {
		t.Errorf("eval: %q", got)
	}
	if got := DescribeToolCall(&ai.ToolCall{Name: "eval", Arguments: map[string]any{"input": "*** Cell py\nprint(1)"}}); got != "[eval: print(1)]" {
		t.Errorf("eval without titles: %q", got)
	}
	if got := DescribeToolCall(&ai.ToolCall{Name: "ssh", Arguments: map[string]any{"host": "web", "command": "uptime\ndf -h"}}); got != "[ssh: web $ uptime df -h]" {
		t.Errorf("got %q", got)
	}
}

// recipe shows its op, inspect_image its image and question.
func TestDescribeToolCallSmallTools(t *testing.T) {
	t.Parallel()
	if got := DescribeToolCall(&ai.ToolCall{Name: "recipe", Arguments: map[string]any{"op": "test\n--watch"}}); got != "[recipe: test --watch]" {
		t.Errorf("recipe: got %q", got)
	}
	if got := DescribeToolCall(&ai.ToolCall{Name: "inspect_image", Arguments: map[string]any{"path": "a.png", "question": "What is it?"}}); got != "[inspect_image: a.png: What is it?]" {
		t.Errorf("inspect_image: got %q", got)
	}
	gh := &ai.ToolCall{Name: "github", Arguments: map[string]any{"op": "search_issues", "query": "crash", "repo": "a/b"}}
	if got := DescribeToolCall(gh); got != "[github: search_issues · crash · a/b]" {
		t.Errorf("github: got %q", got)
	}
	gh = &ai.ToolCall{Name: "github", Arguments: map[string]any{"op": "pr_checkout", "pr": []any{"12", "13"}}}
	if got := DescribeToolCall(gh); got != "[github: pr_checkout · 12, 13]" {
		t.Errorf("github: got %q", got)
	}
}

// Shows agrees with FilterRows row by row.
func TestFilterShowsMatchesFilterRows(t *testing.T) {
	t.Parallel()
	m := must[*Manager](t)(Create(testOptions(t)))
	must[string](t)(m.AppendMessage(user("q")))
	a := assistant("")
	a.Content = ai.ContentList{&ai.ToolCall{ID: "c", Name: "read", Arguments: map[string]any{"path": "x"}}}
	must[string](t)(m.AppendMessage(a))
	must[string](t)(m.AppendMessage(&ai.ToolResultMessage{ToolCallID: "c", ToolName: "read", Content: ai.ContentList{ai.Text("x")}}))
	must[string](t)(m.Record(ModelChange{Model: "p/m", Role: ""}))
	must[string](t)(m.Record(Label{TargetID: m.LeafID(), Label: "mark"}))
	rows := m.TreeRows(TreeQuery{Filter: FilterAll})
	all := FlattenTree(m.Tree(), m.LeafID())
	for _, f := range TreeFilters {
		kept := map[string]bool{}
		for _, r := range FilterRows(all, TreeQuery{Filter: f}) {
			kept[r.Entry.ID] = true
		}
		for _, r := range all {
			if f.Shows(r) != kept[r.Entry.ID] {
				t.Errorf("%s: row %s (%s): Shows %v, FilterRows %v", f, r.Entry.ID, r.Kind, f.Shows(r), kept[r.Entry.ID])
			}
		}
	}
	_ = rows
}

func TestDescribeToolCallCalc(t *testing.T) {
	args := map[string]any{"calculations": []any{
		map[string]any{"expression": "2 + 2", "prefix": "", "suffix": ""},
		map[string]any{"expression": "3 * 3", "prefix": "", "suffix": ""},
	}}
	if got := DescribeToolCall(&ai.ToolCall{Name: "calc", Arguments: args}); got != "[calc: 2 + 2 (2 calcs)]" {
		t.Errorf("got %q", got)
	}
}

// web_search shows its query.
func TestDescribeToolCallWebSearch(t *testing.T) {
	t.Parallel()
	if got := DescribeToolCall(&ai.ToolCall{Name: "web_search", Arguments: map[string]any{"query": "go generics\nrelease", "limit": 3}}); got != "[web_search: go generics release]" {
		t.Errorf("got %q", got)
	}
}
