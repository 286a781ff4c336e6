package session

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// INVENTORY §5 check 1.
func TestNothingWrittenBeforeFirstAssistant(t *testing.T) {
	t.Parallel()
	m := must[*Manager](t)(Create(testOptions(t)))
	must[string](t)(m.Record(ModelChange{Model: "anthropic/claude-sonnet-4-5", Role: ""}))
	must[string](t)(m.AppendMessage(user("hi")))
	if _, err := os.Stat(m.File()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file exists before the first assistant message: %v", err)
	}
	must[string](t)(m.AppendMessage(assistant("hello")))
	if got := len(readLines(t, m.File())); got != 4 {
		t.Fatalf("after the first assistant message the file has %d lines, want 4 (header + 3)", got)
	}
	must[string](t)(m.AppendMessage(user("more")))
	lines := readLines(t, m.File())
	if len(lines) != 5 || !strings.Contains(lines[4], `"more"`) {
		t.Fatalf("append: %d lines, last %s", len(lines), lines[len(lines)-1])
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// What was written loads back to the same context.
	r := must[*Manager](t)(Open(m.File(), Options{}))
	if got := texts(r.BuildContext().Messages); !reflect.DeepEqual(got, []string{"user:hi", "assistant:hello", "user:more"}) {
		t.Errorf("reloaded context %q", got)
	}
	if len(r.Problems()) != 0 {
		t.Errorf("problems: %v", r.Problems())
	}
}

// INVENTORY §5 check 3.
func TestBranchAndEmptyLeaf(t *testing.T) {
	t.Parallel()
	m := InMemory("/w")
	a := must[string](t)(m.AppendMessage(user("a")))
	must[string](t)(m.AppendMessage(assistant("b")))
	if err := m.Branch(a); err != nil {
		t.Fatal(err)
	}
	c := must[string](t)(m.AppendMessage(user("c")))
	if p := m.Entry(c).ParentID; p != a {
		t.Errorf("append after Branch(%s) has parentId %q", a, p)
	}
	if got := texts(m.BuildContext().Messages); !reflect.DeepEqual(got, []string{"user:a", "user:c"}) {
		t.Errorf("context after branch: %q", got)
	}
	if err := m.Branch("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Branch(unknown) = %v", err)
	}
	if kids := m.children(a); len(kids) != 2 {
		t.Errorf("children of %s: %d", a, len(kids))
	}
	_ = m.Branch("")
	if got := m.BuildContext(); len(got.Messages) != 0 || got.ThinkingLevel != "off" || got.Mode != "none" {
		t.Errorf("null leaf context: %+v", got)
	}
	r := must[string](t)(m.AppendMessage(user("root2")))
	if p := m.Entry(r).ParentID; p != "" {
		t.Errorf("append after Branch(\"\") has parent %q", p)
	}
	s := must[string](t)(m.BranchWithSummary("", "left it", nil, false))
	e := m.Entry(s)
	if e.ParentID != "" || e.BranchSummary.FromID != "root" {
		t.Errorf("BranchWithSummary(root): %+v %+v", e, e.BranchSummary)
	}
	s2 := must[string](t)(m.BranchWithSummary(c, "second", map[string]int{"n": 1}, true))
	if e := m.Entry(s2); e.ParentID != c || e.BranchSummary.FromID != c || string(e.BranchSummary.Details) != `{"n":1}` {
		t.Errorf("BranchWithSummary(c): %+v", e.BranchSummary)
	}
	msgs := m.BuildContext().Messages
	if bs, ok := msgs[len(msgs)-1].(*message.BranchSummary); !ok || bs.Summary != "second" || bs.FromID != c {
		t.Errorf("branch summary message: %#v", msgs[len(msgs)-1])
	}
	if _, err := m.BranchWithSummary("nope", "x", nil, false); !errors.Is(err, ErrNotFound) {
		t.Errorf("BranchWithSummary(unknown) = %v", err)
	}
	if p := m.Path(""); len(p) != 3 || p[0].ID != a || p[1].ID != c {
		t.Errorf("path: %d entries", len(p))
	}
}

func TestLabels(t *testing.T) {
	t.Parallel()
	m := InMemory("/w")
	a := must[string](t)(m.AppendMessage(user("a")))
	must[string](t)(m.Record(Label{TargetID: a, Label: "checkpoint"}))
	if m.Label(a) != "checkpoint" {
		t.Errorf("label %q", m.Label(a))
	}
	must[string](t)(m.Record(Label{TargetID: a, Label: ""}))
	if m.Label(a) != "" {
		t.Errorf("cleared label %q", m.Label(a))
	}
	if _, err := m.Record(Label{TargetID: "zzz", Label: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("label on unknown entry: %v", err)
	}
	tree := m.Tree()
	if len(tree) != 1 || len(tree[0].Children) != 1 {
		t.Errorf("tree: %+v", tree)
	}
}

// INVENTORY §5 check 4 and the state collected along the path.
func TestBuildContextCompactionAndState(t *testing.T) {
	t.Parallel()
	m := InMemory("/w")
	must[string](t)(m.AppendMessage(user("old1")))
	a1 := assistant("old2")
	a1.Provider, a1.Model = "openai", "gpt-4o"
	must[string](t)(m.AppendMessage(a1))
	kept := must[string](t)(m.AppendMessage(user("kept1")))
	must[string](t)(m.Record(CustomState("ext", map[string]bool{"state": true})))
	must[string](t)(m.AppendMessage(assistant("kept2")))
	must[string](t)(m.Record(ThinkingLevel("high")))
	must[string](t)(m.Record(ServiceTier("flex")))
	must[string](t)(m.Record(TTSRInjection{InjectedRules: []string{"r1", "r2"}}))
	must[string](t)(m.Record(Compaction{Summary: "SUMMARY", FirstKeptEntryID: kept, TokensBefore: 42000}))
	must[string](t)(m.AppendMessage(user("new1")))
	must[string](t)(m.Record(CustomMessage{CustomType: "note", Content: message.PlainText("injected"), Display: true}))
	must[string](t)(m.Record(TTSRInjection{InjectedRules: []string{"r2", "r3"}}))
	must[string](t)(m.Record(MCPToolSelection{SelectedToolNames: []string{"srv.tool"}}))
	must[string](t)(m.Record(ModeSwitch("plan", map[string]string{"planFile": "/tmp/p.md"})))
	must[string](t)(m.Record(ModelChange{Model: "anthropic/claude-haiku", Role: "smol"}))
	must[string](t)(m.Record(SessionInit{SystemPrompt: "sys", Task: "t"}))

	c := m.BuildContext()
	msgs := c.Messages
	if cs, ok := msgs[0].(*message.CompactionSummary); !ok || cs.Summary != "SUMMARY" || cs.TokensBefore != 42000 {
		t.Fatalf("first message is not the compaction summary: %#v", msgs[0])
	}
	got := texts(msgs[1:])
	want := []string{"user:kept1", "assistant:kept2", "user:new1", "custom:"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages after the summary: %q, want %q", got, want)
	}
	if cm := msgs[4].(*message.Custom); cm.Content.Text() != "injected" || cm.Attribution != "agent" || !cm.Display {
		t.Errorf("custom message: %#v", cm)
	}
	if c.ThinkingLevel != "high" || c.ServiceTier != "flex" || c.Mode != "plan" || string(c.ModeData) != `{"planFile":"/tmp/p.md"}` {
		t.Errorf("state: %+v", c)
	}
	if !reflect.DeepEqual(c.InjectedTTSRRules, []string{"r1", "r2", "r3"}) {
		t.Errorf("ttsr rules %q", c.InjectedTTSRRules)
	}
	if !c.HasMCPToolSelection || !reflect.DeepEqual(c.SelectedMCPToolNames, []string{"srv.tool"}) {
		t.Errorf("mcp: %v %q", c.HasMCPToolSelection, c.SelectedMCPToolNames)
	}
	// default model falls back to the last assistant (no explicit default).
	if !reflect.DeepEqual(c.Models, map[string]string{"default": "anthropic/claude-sonnet-4-5", "smol": "anthropic/claude-haiku"}) {
		t.Errorf("models %v", c.Models)
	}
	// An explicit default wins over later assistants.
	must[string](t)(m.Record(ModelChange{Model: "openai/gpt-5", Role: ""}))
	must[string](t)(m.AppendMessage(assistant("x")))
	if d := m.BuildContext().Models["default"]; d != "openai/gpt-5" {
		t.Errorf("explicit default replaced by assistant's model: %s", d)
	}
	// LLM view: the summary as a user message saying what it is.
	llm := message.ToLLM(msgs)
	if u, ok := llm[0].(*ai.UserMessage); !ok || !strings.Contains(textOf(u.Content), "SUMMARY") {
		t.Errorf("summary for the LLM: %#v", llm[0])
	}
	// Package function: unknown leaf means the last entry; "" is the null leaf.
	if got := BuildContext(m.Entries(), "unknown"); len(got.Messages) != len(m.BuildContext().Messages) {
		t.Errorf("BuildContext(unknown leaf) has %d messages", len(got.Messages))
	}
	if got := BuildContext(m.Entries(), ""); len(got.Messages) != 0 {
		t.Errorf("BuildContext(null leaf) has messages")
	}
}

func TestRemoteCompactionSkipsKeptEntries(t *testing.T) {
	t.Parallel()
	m := InMemory("/w")
	kept := must[string](t)(m.AppendMessage(user("kept")))
	must[string](t)(m.Record(Compaction{Summary: "S", FirstKeptEntryID: kept,
		PreserveData: json.RawMessage(`{"openaiRemoteCompaction":{"provider":"openai","replacementHistory":[{"type":"message"}]}}`)}))
	must[string](t)(m.AppendMessage(user("after")))
	msgs := m.BuildContext().Messages
	cs := msgs[0].(*message.CompactionSummary)
	if string(cs.ProviderPayload) != `{"type":"openaiResponsesHistory","provider":"openai","items":[{"type":"message"}]}` {
		t.Errorf("payload %s", cs.ProviderPayload)
	}
	if got := texts(msgs[1:]); !reflect.DeepEqual(got, []string{"user:after"}) {
		t.Errorf("messages %q", got)
	}
}

// INVENTORY §5 check 5.
func TestSizeControlsAndBlobs(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	m := must[*Manager](t)(Create(opts))
	big := strings.Repeat("x", 600_000)
	img := make([]byte, 1500) // 2000 chars of base64
	for i := range img {
		img[i] = byte(i)
	}
	b64 := base64.StdEncoding.EncodeToString(img)
	small := base64.StdEncoding.EncodeToString(img[:30])
	must[string](t)(m.AppendMessage(&ai.UserMessage{Content: ai.ContentList{ai.Text("look"), &ai.ImageContent{Data: b64, MIMEType: "image/png"},
		&ai.ImageContent{Data: small, MIMEType: "image/png"}}}))
	must[string](t)(m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{&ai.ToolCall{ID: "c1", Name: "bash", Arguments: map[string]any{"command": "x"}, PartialJSON: "{"}}}))
	id := must[string](t)(m.AppendMessage(&ai.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: ai.ContentList{ai.Text(big)},
		Details: map[string]any{"jsonlEvents": []int{1}, "content": big, "lineCount": 1}}))
	// In memory, the message is as appended.
	if tr := m.Entry(id).Message.(*ai.ToolResultMessage); len(textOf(tr.Content)) != 600_000 {
		t.Error("in-memory message was cut")
	}
	file, _ := os.ReadFile(m.File())
	lines := strings.Split(strings.TrimSpace(string(file)), "\n")
	var stored struct {
		Message struct {
			Content []struct{ Text string }
			Details map[string]any
		}
	}
	if err := json.Unmarshal([]byte(lines[3]), &stored); err != nil {
		t.Fatal(err)
	}
	text := stored.Message.Content[0].Text
	if len(text) != MaxPersistChars || !strings.HasSuffix(text, "\n\n[Session persistence truncated large content]") {
		t.Errorf("stored result: %d chars, ends %q", len(text), text[len(text)-60:])
	}
	if _, ok := stored.Message.Details["jsonlEvents"]; ok {
		t.Error("jsonlEvents persisted")
	}
	if lc := stored.Message.Details["lineCount"]; lc != float64(3) {
		t.Errorf("lineCount after cut = %v, want 3", lc)
	}
	if strings.Contains(lines[2], "partialJson") {
		t.Error("partialJson persisted")
	}
	// The large image went to the blob store, the small one stayed inline.
	hash := sha256hex(img)
	if !strings.Contains(lines[1], `"data":"blob:sha256:`+hash+`"`) || !strings.Contains(lines[1], small) || strings.Contains(lines[1], b64) {
		t.Errorf("image line: %.300s", lines[1])
	}
	if blob, err := os.ReadFile(filepath.Join(opts.BlobDir, hash)); err != nil || string(blob) != string(img) {
		t.Errorf("blob file: %v", err)
	}
	m.Close()
	r := must[*Manager](t)(Open(m.File(), Options{BlobDir: opts.BlobDir}))
	u := r.Entries()[0].Message.(*ai.UserMessage)
	if u.Content[1].(*ai.ImageContent).Data != b64 {
		t.Error("image not restored from the blob store")
	}
	// Without the blob store, the reference stays and is reported.
	r2 := must[*Manager](t)(Open(m.File(), Options{BlobDir: t.TempDir()}))
	if u := r2.Entries()[0].Message.(*ai.UserMessage); u.Content[1].(*ai.ImageContent).Data != "blob:sha256:"+hash {
		t.Error("missing blob: reference not kept")
	}
	if p := r2.Problems(); len(p) != 1 || p[0].Line != 2 || !strings.Contains(p[0].Err, "not found") {
		t.Errorf("missing blob problems: %v", p)
	}
}

func TestSignatureEmptiedNotCut(t *testing.T) {
	t.Parallel()
	out, err := prepare([]byte(`{"a":{"thinkingSignature":"`+strings.Repeat("s", 500_001)+`","x":"é"}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"a":{"thinkingSignature":"","x":"é"}}` {
		t.Errorf("got %.100s", out)
	}
	// UTF-16 counting: 250,001 astral characters are 500,002 units.
	s := strings.Repeat("😀", 250_001)
	out, _ = prepare(append(append([]byte(`{"t":"`), s...), `"}`...), nil)
	var v struct{ T string }
	json.Unmarshal(out, &v)
	// As omp: a cut between the halves of a surrogate pair drops the lone half.
	if utf16Len(v.T) != MaxPersistChars-1 || !strings.HasSuffix(v.T, TruncationNotice) {
		t.Errorf("astral cut: %d units", utf16Len(v.T))
	}
}
