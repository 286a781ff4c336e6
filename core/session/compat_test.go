package session

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// A session written through every append method; the file is the golden
// testdata/golden/new.jsonl (go test -update rewrites it).
func TestGoldenNewSession(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	m := must[*Manager](t)(Create(opts))
	must[string](t)(m.Record(ModelChange{Model: "anthropic/claude-sonnet-4-5", Role: ""}))
	must[string](t)(m.Record(ThinkingLevel("high")))
	u := must[string](t)(m.AppendMessage(user("Fix <the> bug & \"quote\" \u2028 é \x01")))
	must[string](t)(m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{
		&ai.ThinkingContent{Thinking: "hmm", ThinkingSignature: "sig"},
		ai.Text("Reading."),
		&ai.ToolCall{ID: "call_1", Name: "read", Arguments: map[string]any{"path": "a.go"}},
	}, API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", StopReason: ai.StopReasonToolUse,
		Usage: ai.Usage{Input: 100, Output: 20}, Timestamp: 1760000000002}))
	must[string](t)(m.AppendMessage(&ai.ToolResultMessage{ToolCallID: "call_1", ToolName: "read", Content: ai.ContentList{ai.Text("package a")}, Timestamp: 1760000000003}))
	must[string](t)(m.AppendMessage(&message.BashExecution{Command: "ls", Output: "a.go", ExitCode: new(0), Timestamp: 1760000000004}))
	must[string](t)(m.Record(CustomState("my-ext", map[string]int{"state": 1})))
	must[string](t)(m.Record(CustomMessage{CustomType: "my-ext", Content: message.PlainText("Injected"), Display: true, Details: []byte(`{"debug":false}`)}))
	must[string](t)(m.Record(Label{TargetID: u, Label: "checkpoint"}))
	must[string](t)(m.Record(ServiceTier("")))
	must[string](t)(m.Record(TTSRInjection{InjectedRules: []string{"ruleA"}}))
	must[string](t)(m.Record(MCPToolSelection{SelectedToolNames: []string{"server.tool"}}))
	must[string](t)(m.Record(SessionInit{SystemPrompt: "sys", Task: "task", Tools: []string{"read"}}))
	must[string](t)(m.Record(ModeSwitch("plan", map[string]string{"planFile": "/tmp/plan.md"})))
	must[string](t)(m.Record(Compaction{Summary: "Summary", ShortSummary: "Short", FirstKeptEntryID: u, TokensBefore: 42000, Details: []byte(`{"readFiles":["a.go"]}`)}))
	must[string](t)(m.BranchWithSummary(u, "Abandoned path", nil, false))
	must[bool](t)(m.SetName("Fix\tthe  bug\n", TitleUser))
	if ok := must[bool](t)(m.SetName("auto name", TitleAuto)); ok {
		t.Error("an automatic name replaced the user's")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, m.File(), "new.jsonl")
	if m.Name() != "Fix the bug" {
		t.Errorf("name %q", m.Name())
	}
	if base := filepath.Base(m.File()); !strings.HasPrefix(base, "2026-02-16T10-20-30-00") || !strings.HasSuffix(base, "_"+m.SessionID()+".jsonl") {
		t.Errorf("file name %s", base)
	}
	// Round trip: every line loads, and a rewrite (SetName) writes the
	// entries back byte for byte.
	before := readLines(t, m.File())
	r := must[*Manager](t)(Open(m.File(), Options{BlobDir: opts.BlobDir}))
	if len(r.Problems()) != 0 || len(r.Entries()) != len(before)-1 {
		t.Fatalf("reload: %v, %d entries", r.Problems(), len(r.Entries()))
	}
	must[bool](t)(r.SetName("Renamed", TitleUser))
	after := readLines(t, m.File())
	if !reflect.DeepEqual(before[1:], after[1:]) || !strings.Contains(after[0], `"title":"Renamed"`) {
		t.Errorf("rewrite changed entries or missed the title:\n%s", after[0])
	}
}

// Files written by omp 14.9.9 (testdata/omp, see its README) load, build
// their context, accept appends, and keep their lines byte for byte.
func TestOmpFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/omp/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no omp fixtures")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p := copyFixture(t, "omp/"+filepath.Base(f))
			orig := readLines(t, p)
			m := must[*Manager](t)(Open(p, Options{BlobDir: "testdata/omp/blobs"}))
			if len(m.Problems()) != 0 {
				t.Fatalf("problems: %v", m.Problems())
			}
			c := m.BuildContext()
			if len(c.Messages) == 0 || c.Models["default"] == "" {
				t.Fatalf("context: %+v", c)
			}
			// omp's developer messages (the request of its handoff turn,
			// branch.jsonl) are kept but not sent: gopi has no developer
			// role yet.
			developer := 0
			for _, msg := range c.Messages {
				if o, ok := msg.(*ai.OpaqueMessage); ok && o.Role == "developer" {
					developer++
				}
			}
			if llm := message.ToLLM(c.Messages); len(llm) != len(c.Messages)-developer {
				t.Errorf("ToLLM dropped messages: %d of %d", len(llm), len(c.Messages))
			}
			id := must[string](t)(m.AppendMessage(user("from gopi")))
			must[bool](t)(m.SetName("renamed by gopi", TitleUser))
			now := readLines(t, p)
			if !reflect.DeepEqual(now[1:len(orig)], orig[1:]) {
				t.Error("omp's lines changed")
			}
			if last := m.Entry(id); last.ParentID != orig[len(orig)-1][strings.Index(orig[len(orig)-1], `"id":"`)+6:][:8] {
				t.Errorf("appended under %s", last.ParentID)
			}
		})
	}
	t.Run("named state", func(t *testing.T) {
		m := must[*Manager](t)(Open(copyFixture(t, "omp/named.jsonl"), Options{}))
		c := m.BuildContext()
		if c.ThinkingLevel != "low" || c.Models["default"] != "mock/mock-model-2" || m.Name() != "Greeting test" || m.Header().TitleSource != "user" {
			t.Errorf("state %+v name %q", c, m.Name())
		}
	})
	t.Run("image from blob", func(t *testing.T) {
		m := must[*Manager](t)(Open(copyFixture(t, "omp/image.jsonl"), Options{BlobDir: "testdata/omp/blobs"}))
		png, _ := os.ReadFile("testdata/omp/image.png")
		u := m.BuildContext().Messages[0].(*ai.UserMessage)
		if img := u.Content[1].(*ai.ImageContent); img.Data != base64.StdEncoding.EncodeToString(png) || img.MIMEType != "image/png" {
			t.Error("image not restored")
		}
	})
	t.Run("image from a fallback blob directory", func(t *testing.T) {
		own := t.TempDir() // gopi's store, without the blob
		m := must[*Manager](t)(Open(copyFixture(t, "omp/image.jsonl"), Options{BlobDir: own, BlobFallback: []string{"testdata/omp/blobs"}}))
		if len(m.Problems()) != 0 {
			t.Errorf("problems: %v", m.Problems())
		}
		png, _ := os.ReadFile("testdata/omp/image.png")
		u := m.BuildContext().Messages[0].(*ai.UserMessage)
		if img := u.Content[1].(*ai.ImageContent); img.Data != base64.StdEncoding.EncodeToString(png) {
			t.Error("image not restored from the fallback directory")
		}
	})
	t.Run("spill artifacts", func(t *testing.T) {
		dir := t.TempDir()
		b, _ := os.ReadFile("testdata/omp/spill.jsonl")
		p := filepath.Join(dir, "s.jsonl")
		os.WriteFile(p, b, 0o644)
		os.MkdirAll(filepath.Join(dir, "s"), 0o755)
		log, _ := os.ReadFile("testdata/omp/spill/0.bash.log")
		os.WriteFile(filepath.Join(dir, "s", "0.bash.log"), log, 0o644)
		m := must[*Manager](t)(Open(p, Options{}))
		a := m.Artifacts()
		if a.Dir() != filepath.Join(dir, "s") {
			t.Errorf("artifacts dir %s", a.Dir())
		}
		if got := must[string](t)(a.Read("artifact://0")); got != string(log) {
			t.Error("artifact 0 differs")
		}
		if id := must[string](t)(a.Save("bash", "more")); id != "1" {
			t.Errorf("next artifact id %s, want 1", id)
		}
	})
}

// Fields and lines this version does not model survive a rewrite in place.
func TestUnknownContentKept(t *testing.T) {
	t.Parallel()
	const file = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","future":{"x":1}}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1,"providerPayload":{"k":[1,2]}}}
not json at all
{"type":"hologram","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","beam":true}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok","cache":true},{"type":"hologram","z":1}],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"premiumRequests":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}
{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"teleport","where":"mars"}}
{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"user","content":5}}
{"no":"type"}
{"type":"label","id":"a6","parentId":"a5","timestamp":"2026-01-01T00:00:06.000Z","targetId":"a1","label":"here"}
{"type":"message","id":"a7","parentId":"a6","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"user","content":"torn
`
	p := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(p, []byte(file), 0o644)
	m := must[*Manager](t)(Open(p, Options{}))
	var lines []int
	for _, pr := range m.Problems() {
		lines = append(lines, pr.Line)
	}
	if !reflect.DeepEqual(lines, []int{3, 7, 8, 10}) {
		t.Errorf("problem lines %v: %v", lines, m.Problems())
	}
	if m.LeafID() != "a6" || m.Label("a1") != "here" {
		t.Errorf("leaf %s label %q", m.LeafID(), m.Label("a1"))
	}
	got := texts(m.BuildContext().Messages)
	if !reflect.DeepEqual(got, []string{"user:hi", "assistant:ok", "teleport:", "user:"}) {
		t.Errorf("context %q", got)
	}
	if llm := message.ToLLM(m.BuildContext().Messages); len(llm) != 2 {
		t.Errorf("ToLLM kept %d messages, want 2 (opaque ones dropped)", len(llm))
	}
	must[string](t)(m.AppendMessage(user("next")))
	must[bool](t)(m.SetName("T", TitleUser))
	want := strings.Replace(file, `"future":{"x":1}}`, `"future":{"x":1},"title":"T","titleSource":"user"}`, 1)
	want = strings.Replace(want, `"content":"torn`+"\n", `"content":"torn`+"\n"+string(m.Entry(m.LeafID()).Raw())+"\n", 1)
	if got, _ := os.ReadFile(p); string(got) != want {
		t.Errorf("file after append and rewrite:\n%s\nwant:\n%s", got, want)
	}
}

func TestOpenEdgeCases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	t.Run("missing file starts a new session there", func(t *testing.T) {
		p := filepath.Join(dir, "sub", "new.jsonl")
		m := must[*Manager](t)(Open(p, Options{Cwd: "/w"}))
		if lines := readLines(t, p); len(lines) != 1 || !strings.Contains(lines[0], `"type":"session","version":3`) {
			t.Errorf("new file: %q", lines)
		}
		must[string](t)(m.AppendMessage(user("x")))
		if n := len(readLines(t, p)); n != 2 {
			t.Errorf("append before any assistant to an opened file: %d lines", n)
		}
	})
	t.Run("empty file", func(t *testing.T) {
		p := filepath.Join(dir, "empty.jsonl")
		os.WriteFile(p, []byte("\n  \n"), 0o644)
		must[*Manager](t)(Open(p, Options{Cwd: "/w"}))
		if lines := readLines(t, p); len(lines) != 1 {
			t.Errorf("empty file: %q", lines)
		}
	})
	for name, content := range map[string]string{
		"not a header": `{"type":"message","id":"x"}` + "\n",
		"not json":     "hello\n",
		"newer":        `{"type":"session","version":4,"id":"s"}` + "\n" + `{"type":"quantum","id":"q","parentId":null}` + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".jsonl")
			os.WriteFile(p, []byte(content), 0o644)
			_, err := Open(p, Options{})
			want := ErrInvalidHeader
			if name == "newer" {
				want = ErrNewerVersion
			}
			if !errors.Is(err, want) {
				t.Errorf("Open = %v, want %v", err, want)
			}
			if b, _ := os.ReadFile(p); string(b) != content {
				t.Error("refused file was modified")
			}
		})
	}
}

func TestPersistErrorsAreLatched(t *testing.T) {
	t.Parallel()
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	m := must[*Manager](t)(Create(Options{Dir: filepath.Join(blocker, "sessions")}))
	must[string](t)(m.AppendMessage(user("a")))
	_, err := m.AppendMessage(assistant("b"))
	if err == nil {
		t.Fatal("no error writing under a regular file")
	}
	_, err2 := m.AppendMessage(user("c"))
	if err2 != err || m.Err() != err || m.Flush() != err {
		t.Errorf("error not latched: %v / %v / %v", err, err2, m.Err())
	}
	if got := texts(m.BuildContext().Messages); len(got) != 3 {
		t.Errorf("in-memory session lost entries: %q", got)
	}
	if _, err := m.AppendMessage(&message.CompactionSummary{}); err == nil {
		t.Error("a compaction summary was accepted as a message")
	}
}

func TestFileRemovedUnderUs(t *testing.T) {
	t.Parallel()
	m := must[*Manager](t)(Create(testOptions(t)))
	must[string](t)(m.AppendMessage(user("a")))
	must[string](t)(m.AppendMessage(assistant("b")))
	os.Remove(m.File())
	must[string](t)(m.AppendMessage(user("c")))
	if lines := readLines(t, m.File()); len(lines) != 4 {
		t.Errorf("file written again has %d lines, want 4", len(lines))
	}
}

// An entry another process appended under an id we also have is kept
// beside ours, not replaced by it.
func TestMergeKeepsCollidingForeignEntry(t *testing.T) {
	t.Parallel()
	path := newFile(t)
	m := must[*Manager](t)(Open(path, Options{}))
	id := m.Entries()[0].ID
	foreign := `{"type":"message","id":"` + id + `","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"theirs"}}`
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(foreign + "\n")
	f.Close()
	must[bool](t)(m.SetName("x", TitleUser))
	lines := readLines(t, path)
	if len(lines) != 4 || lines[3] != foreign {
		t.Errorf("file after merge:\n%s", strings.Join(lines, "\n"))
	}
	if m.Entry(id).Message.(*ai.UserMessage).Content[0].(*ai.TextContent).Text != "start" {
		t.Error("our entry was replaced")
	}
}
