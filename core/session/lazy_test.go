package session

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// writeCompacted writes a session of turns rounds (prompt, tool call, tool
// result, answer), a compaction keeping the last kept turns, more turns,
// and a branch left behind; it returns the file and the ids of the kept
// part's first entry and of the first entry of the abandoned branch.
func writeCompacted(t *testing.T, turns, kept, after int) (path, firstKept, abandoned string) {
	t.Helper()
	m := must[*Manager](t)(Create(testOptions(t)))
	var starts []string
	turn := func(i int) {
		starts = append(starts, must[string](t)(m.AppendMessage(user(fmt.Sprintf("prompt %d", i)))))
		a := assistant("")
		a.Content = ai.ContentList{&ai.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "read", Arguments: map[string]any{"path": "a.go"}}}
		a.StopReason = ai.StopReasonToolUse
		must[string](t)(m.AppendMessage(a))
		tool := "read"
		if i%7 == 3 {
			tool = "todo_write"
		}
		must[string](t)(m.AppendMessage(&ai.ToolResultMessage{ToolCallID: fmt.Sprintf("c%d", i), ToolName: tool,
			Content: ai.ContentList{ai.Text(strings.Repeat("line\n", 50))}, Details: map[string]any{"n": i}}))
		must[string](t)(m.AppendMessage(assistant(fmt.Sprintf("answer %d", i))))
	}
	for i := range turns {
		turn(i)
	}
	firstKept = starts[len(starts)-kept]
	must[string](t)(m.Record(Compaction{Summary: "so far", FirstKeptEntryID: firstKept, TokensBefore: 1000}))
	for i := range after {
		turn(turns + i)
	}
	// A branch left behind: back to before the last prompt, then on.
	last := starts[len(starts)-1]
	must[string](t)(m.AppendMessage(user("abandoned")))
	abandoned = m.LeafID()
	if err := m.Branch(m.Entry(last).ParentID); err != nil {
		t.Fatal(err)
	}
	turn(turns + after)
	m.Close()
	return m.File(), firstKept, abandoned
}

// pending returns the ids of the message entries not decoded yet.
func pendingIDs(m *Manager) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, e := range m.entries {
		if e.pending != nil {
			out = append(out, e.ID)
		}
	}
	return out
}

// TestOpenDecodesOnlyTheContext: opening a compacted session decodes the
// messages the context sends and nothing else; building the context,
// ContextPath and a selective SelectPath decode no more; Entries decodes
// the rest, and the result is what decoding everything gives.
func TestOpenDecodesOnlyTheContext(t *testing.T) {
	t.Parallel()
	path, firstKept, abandoned := writeCompacted(t, 40, 2, 3)
	m := must[*Manager](t)(Open(path, Options{}))
	ctxPath := m.ContextPath("")
	if ctxPath[0].ID != firstKept {
		t.Fatalf("context path starts at %s, want the first kept entry %s", ctxPath[0].ID, firstKept)
	}
	pend := pendingIDs(m)
	// 40 turns of 4 messages before the compaction, 2 of them kept; the
	// abandoned branch: the last turn after it and the prompt after that.
	if want := 38*4 + 4 + 1; len(pend) != want || !slices.Contains(pend, abandoned) {
		t.Fatalf("%d messages pending after Open, want %d (abandoned prompt among them: %v)", len(pend), want, slices.Contains(pend, abandoned))
	}
	for _, e := range ctxPath {
		if e.Type == TypeMessage && e.Message == nil {
			t.Fatalf("context entry %s not decoded", e.ID)
		}
	}
	c := m.BuildContext()
	m.ContextPath("")
	todos := m.SelectPath("", Selector{Types: []string{TypeMessage}, Roles: []ai.Role{ai.RoleToolResult}, ToolNames: []string{"todo_write"}})
	if got := len(pendingIDs(m)); got != len(pend)-len(todos)+countIn(todos, ctxPath) {
		t.Errorf("%d pending after BuildContext, ContextPath and SelectPath, want %d (only the %d todo results decoded)", got, len(pend)-len(todos)+countIn(todos, ctxPath), len(todos))
	}
	if len(todos) != 6 {
		t.Errorf("SelectPath found %d todo_write results on the path, want 6", len(todos))
	}
	for _, e := range todos {
		if r, ok := e.Message.(*ai.ToolResultMessage); !ok || r.ToolName != "todo_write" {
			t.Errorf("SelectPath picked %s", e.ID)
		}
	}

	ref := must[*Manager](t)(Open(path, Options{}))
	all := ref.Entries()
	if n := len(pendingIDs(ref)); n != 0 {
		t.Fatalf("%d messages pending after Entries", n)
	}
	if want := BuildContext(all, ref.LeafID()); !reflect.DeepEqual(c, want) {
		t.Error("the context built from the decoded context part differs from the one built from every entry")
	}
	if !reflect.DeepEqual(m.Entries(), all) {
		t.Error("entries decoded later differ from entries decoded at once")
	}
}

func countIn(es, in []*Entry) int {
	n := 0
	for _, e := range es {
		if slices.Contains(in, e) {
			n++
		}
	}
	return n
}

// TestUndecodableMessageReportedWhenDecoded: a message the context does
// not send is reported only once something decodes it, with its line, and
// then kept as an opaque message, as at load before.
func TestUndecodableMessageReportedWhenDecoded(t *testing.T) {
	t.Parallel()
	path, _, _ := writeCompacted(t, 10, 1, 1)
	lines := readLines(t, path)
	// Line 2 is the first prompt, long compacted away.
	var e map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &e); err != nil {
		t.Fatal(err)
	}
	e["message"] = map[string]any{"role": "user", "content": 5}
	b, _ := json.Marshal(e)
	lines[1] = string(b)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := must[*Manager](t)(Open(path, Options{}))
	m.BuildContext()
	if p := m.Problems(); len(p) != 0 {
		t.Fatalf("problems before the message was needed: %v", p)
	}
	first := m.Entries()[0]
	if p := m.Problems(); len(p) != 1 || p[0].Line != 2 || !strings.Contains(p[0].Err, "kept as an unknown entry") {
		t.Fatalf("problems after Entries: %v", p)
	}
	if o, ok := first.Message.(*ai.OpaqueMessage); !ok || o.Role != "user" {
		t.Fatalf("undecodable message became %T", first.Message)
	}
	m.Entries()
	if p := m.Problems(); len(p) != 1 {
		t.Fatalf("reported again: %v", p)
	}
}

// TestLastAnswerModelDecodedOnDemand: without a model_change entry, the
// model of the last answer on the path is the default, even when that
// answer is before the context's part.
func TestLastAnswerModelDecodedOnDemand(t *testing.T) {
	t.Parallel()
	const file = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"old","stopReason":"stop","timestamp":2}}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"last","stopReason":"stop","timestamp":3}}
{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":"kept","timestamp":4}}
{"type":"compaction","id":"a5","parentId":"a4","timestamp":"2026-01-01T00:00:05.000Z","summary":"s","firstKeptEntryId":"a4","tokensBefore":9}
{"type":"message","id":"a6","parentId":"a5","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"user","content":"next","timestamp":6}}
`
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(file), 0o600)
	m := must[*Manager](t)(Open(path, Options{}))
	if got := m.BuildContext().Models["default"]; got != "p/last" {
		t.Errorf("default model %q, want p/last", got)
	}
	if got := pendingIDs(m); !slices.Equal(got, []string{"a1", "a2"}) {
		t.Errorf("pending %v, want the two entries before the last answer", got)
	}
}

// FuzzLazyLoad: whatever the file, what the store gives with messages
// decoded on demand equals what it gives with every message decoded first:
// the context at the leaf and at other entries, ContextPath (the
// reference: the path from the latest compaction's first kept entry, or
// the compaction), SelectPath (the reference: Path filtered), and in the
// end the problems.
func FuzzLazyLoad(f *testing.F) {
	for _, name := range []string{"omp/compact.jsonl", "omp/compact-split.jsonl", "omp/branch.jsonl", "omp/tool.jsonl", "migrate/v2.jsonl", "golden/new.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(3))
	}
	f.Add([]byte(`{"type":"session","version":3,"id":"s"}
{"type":"message","id":"a","parentId":null,"message":{"role":"hookMessage","customType":"x","content":"c","display":true}}
{"type":"message","id":"b","parentId":"a","message":{"Role":"toolResult","toolName":"t","content":[]}}
{"type":"message","id":"c","parentId":"b","message":{"role":"toolResult","TOOLNAME":"t","toolName":"u","content":"x"}}
{"type":"compaction","id":"d","parentId":"c","summary":"s","firstKeptEntryId":"c"}
{"type":"message","id":"e","parentId":"d","message":{"role":"assistant","model":"m","provider":"p","content":5}}
{"type":"message","id":"f","parentId":"e","message":{"role":"assistant","role":"user","content":"x"}}
`), uint8(1))
	sels := []Selector{
		{Types: []string{TypeCustom, TypeMessage}, Roles: []ai.Role{ai.RoleToolResult}, ToolNames: []string{"todo_write", "t"}},
		{Roles: []ai.Role{ai.RoleAssistant, "custom"}},
		{ToolNames: []string{"u"}},
		{Types: []string{TypeCompaction}},
	}
	f.Fuzz(func(t *testing.T, b []byte, pick uint8) {
		lazy, err := parseFile(b, nil, rand.NewChaCha8([32]byte{}))
		if err != nil {
			return
		}
		eager, _ := parseFile(b, nil, rand.NewChaCha8([32]byte{}))
		m := newManager(Options{Rand: rand.NewChaCha8([32]byte{})})
		m.load(lazy)
		r := newManager(Options{Rand: rand.NewChaCha8([32]byte{})})
		r.load(eager)
		all := r.Entries()
		if !reflect.DeepEqual(m.BuildContext(), r.BuildContext()) {
			t.Fatal("context at the leaf differs")
		}
		ids := []string{""}
		if len(all) > 0 {
			ids = append(ids, all[int(pick)%len(all)].ID, all[len(all)/2].ID)
		}
		for _, id := range ids {
			if id != "" && !reflect.DeepEqual(m.contextAtID(id), r.contextAtID(id)) {
				t.Fatalf("context at %s differs", id)
			}
			full := r.Path(id)
			from := 0
			for i := len(full) - 1; i >= 0; i-- {
				if c := full[i].Compaction; c != nil {
					from = i
					if k := slices.IndexFunc(full[:i], func(e *Entry) bool { return e.ID == c.FirstKeptEntryID }); k >= 0 {
						from = k
					}
					break
				}
			}
			if got, want := ids2(m.ContextPath(id)), ids2(full[from:]); !slices.Equal(got, want) {
				t.Fatalf("ContextPath(%q) = %v, want %v", id, got, want)
			}
			for _, sel := range sels {
				var want []*Entry
				for _, e := range full {
					if sel.admits(e) {
						want = append(want, e)
					}
				}
				if got := m.SelectPath(id, sel); !reflect.DeepEqual(got, want) {
					t.Fatalf("SelectPath(%q, %+v) = %v, want %v", id, sel, ids2(got), ids2(want))
				}
			}
		}
		if got := m.Entries(); !reflect.DeepEqual(got, all) {
			t.Fatal("entries differ")
		}
		if got, want := m.Problems(), r.Problems(); !reflect.DeepEqual(got, want) {
			t.Fatalf("problems %v, want %v", got, want)
		}
	})
}

func ids2(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// FuzzMessageHead: the head the scan reads from a message never rules out
// what decoding gives (SelectPath and the last-answer search rely on it),
// and the scan validates exactly as skipValue does.
func FuzzMessageHead(f *testing.F) {
	for _, s := range []string{
		`{"role":"toolResult","toolCallId":"c","toolName":"todo_write","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":1}`,
		`{"role":"hookMessage","customType":"x","content":"c","display":true,"timestamp":1}`,
		`{"Role":"assistant","content":[],"provider":"p","model":"m"}`,
		`{"role":"user","ROLE":"assistant","content":"x"}`,
		`{"role":"toolResult","toolName":"a","TOOLNAME":"b","content":"x"}`,
		`{"role":"toolResult","toolName":5,"content":"x"}`,
		`{"r\u006fle":"user","content":"x"}`,
		`{"role":"user","content":5}`,
		`{"role":"bashExecution","command":"ls","output":"","timestamp":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		if len(msg) == 0 || msg[0] != '{' {
			return
		}
		want, wantErr := skipValue(msg, 0, 1)
		end, h, err := scanHead(msg, 0)
		if (err == nil) != (wantErr == nil) || err == nil && end != want {
			t.Fatalf("scanHead: end %d, %v; skipValue: end %d, %v", end, err, want, wantErr)
		}
		if err != nil || trailing(msg, end) != nil {
			return
		}
		e := &Entry{Type: TypeMessage}
		if err := e.decodePayload(nil, msg); err != nil {
			e.Message = &ai.OpaqueMessage{Role: roleOf(msg)}
		}
		role, tool := e.Message.MessageRole(), ""
		if r, ok := e.Message.(*ai.ToolResultMessage); ok {
			tool = r.ToolName
		}
		if !h.mayBe(role, tool) || !h.mayBe(role, "") {
			t.Fatalf("head %+v rules out role %q, tool %q", h, role, tool)
		}
	})
}
