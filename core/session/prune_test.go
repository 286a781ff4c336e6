package session

import (
	"os"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Pruning an omp-written tool result rewrites only that line: its content
// becomes the notice, prunedAt is added at the end of the message, every
// other member and every other line keeps its bytes; the pruned output
// reloads and reaches the model as the notice.
func TestPruneToolResults(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "omp/tool.jsonl")
	before := readLines(t, p)
	m := must[*Manager](t)(Open(p, Options{}))
	var target *Entry
	for _, e := range m.Entries() {
		if r, ok := e.Message.(*ai.ToolResultMessage); ok && r.ToolName == "edit" {
			target = e
		}
	}
	if target == nil {
		t.Fatal("no edit result in the fixture")
	}
	if err := m.PruneToolResults([]Prune{{EntryID: target.ID, Text: "[Output truncated - 42 tokens]", PrunedAt: 1760000000123}}); err != nil {
		t.Fatal(err)
	}
	if r := target.Message.(*ai.ToolResultMessage); r.PrunedAt != 0 {
		t.Error("the entry handed out before was changed")
	}
	after := readLines(t, p)
	if len(after) != len(before) {
		t.Fatalf("%d lines, was %d", len(after), len(before))
	}
	changed := 0
	for i := range before {
		if before[i] == after[i] {
			continue
		}
		changed++
		line := after[i]
		if !strings.Contains(line, `"content":[{"type":"text","text":"[Output truncated - 42 tokens]"}]`) || !strings.HasSuffix(line, `,"prunedAt":1760000000123}}`) {
			t.Errorf("pruned line: %s", line)
		}
		// Everything before content is unchanged.
		head := before[i][:strings.Index(before[i], `"content":`)]
		if !strings.HasPrefix(line, head) {
			t.Errorf("members before content changed:\n%s\n%s", head, line)
		}
	}
	if changed != 1 {
		t.Errorf("%d lines changed, want 1", changed)
	}
	m.Close()

	r := must[*Manager](t)(Open(p, Options{}))
	e := r.Entry(target.ID)
	res := e.Message.(*ai.ToolResultMessage)
	if res.PrunedAt != 1760000000123 || textOf(res.Content) != "[Output truncated - 42 tokens]" || e.ParentID != target.ParentID {
		t.Errorf("reloaded %+v", res)
	}
	var sent string
	for _, m := range message.ToLLM(r.BuildContext().Messages) {
		if tr, ok := m.(*ai.ToolResultMessage); ok && tr.ToolName == "edit" {
			sent = textOf(tr.Content)
		}
	}
	if sent != "[Output truncated - 42 tokens]" {
		t.Errorf("model sees %q", sent)
	}
}

// A prune in a session not yet written, or in memory, changes the entry;
// an unknown id or a message that is not a tool result is refused.
func TestPruneToolResultsInMemoryAndErrors(t *testing.T) {
	t.Parallel()
	for _, m := range []*Manager{InMemory("/p"), must[*Manager](t)(Create(testOptions(t)))} {
		must[string](t)(m.AppendMessage(user("hi")))
		id := must[string](t)(m.AppendMessage(&ai.ToolResultMessage{ToolCallID: "c", ToolName: "bash", Content: ai.ContentList{ai.Text("long output")}}))
		if err := m.PruneToolResults([]Prune{{EntryID: id, Text: "[Output truncated - 3 tokens]", PrunedAt: 5}}); err != nil {
			t.Fatal(err)
		}
		if got := texts(m.BuildContext().Messages); got[1] != "toolResult:[Output truncated - 3 tokens]" {
			t.Errorf("context %v", got)
		}
		if err := m.PruneToolResults([]Prune{{EntryID: "nope"}}); err == nil {
			t.Error("unknown id accepted")
		}
		if err := m.PruneToolResults([]Prune{{EntryID: m.Entries()[0].ID}}); err == nil {
			t.Error("a user message was pruned")
		}
		// Written later, the file has the pruned form.
		must[string](t)(m.AppendMessage(assistant("ok")))
		if m.File() != "" {
			b, _ := os.ReadFile(m.File())
			if !strings.Contains(string(b), `"prunedAt":5`) || strings.Contains(string(b), "long output") {
				t.Errorf("file:\n%s", b)
			}
		}
		m.Close()
	}
}
