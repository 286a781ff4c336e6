package printmode_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/launch"
	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

func newAgentRig(t testing.TB, turns ...mockllm.Turn) *agentrig.Rig { return agentrig.New(t, turns...) }

// runPrint runs print mode (format, verbose) on one prompt, on a session
// built through the launch path `gopi -p --model mock/mock-model` takes,
// in the rig's project; it returns what was printed and the status.
func runPrint(t *testing.T, r *agentrig.Rig, format printmode.Format, verbose bool, prompt string) (stdout, stderr string, code int) {
	t.Helper()
	mode := launch.Print
	if format == printmode.JSON {
		mode = launch.JSON
	}
	req := &launch.Request{Cwd: r.Project, Environ: r.Environ, Mode: mode, Model: "mock/mock-model"}
	cfg, err := launch.LoadConfig(req)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := launch.Open(ctx, req, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code = st.RunPrint(ctx, req, []printmode.Prompt{{Text: prompt}}, printmode.Options{Format: format, Verbose: verbose, Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

const greetGo = "package main\n\nfunc greet() string {\n\treturn \"Hello\"\n}\n"

// The end-to-end task: the model reads a file, edits it with a
// stale anchor (rejected, nothing written), edits it again with the anchor
// the rejection shows, and the file ends as expected; the session file
// holds the whole conversation as a tree.
func TestPrintModeCodingTask(t *testing.T) {
	t.Parallel()
	good := hashline.Anchor(4, "\treturn \"Hello\"")
	stale := "4" + strings.Map(func(r rune) rune { return 'a' + (r-'a'+7)%26 }, good[1:])
	edit := func(anchor string) string {
		return "@@ greet.go\n= " + anchor + ".." + anchor + "\n~\treturn \"Hello, world!\"\n"
	}
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Reading it first."), agentrig.ToolCall("read", map[string]any{"path": "greet.go"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("edit", map[string]any{"input": edit(stale)})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("edit", map[string]any{"input": edit(good)})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("greet now says Hello, world!")}},
	)
	r.Write("greet.go", greetGo)
	stdout, stderr, code := runPrint(t, r, printmode.Text, true, "make greet say Hello, world!")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if stdout != "greet now says Hello, world!\n" {
		t.Errorf("stdout %q", stdout)
	}
	for _, want := range []string{"→ read", "✗ edit", "✓ edit"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	got, _ := os.ReadFile(filepath.Join(r.Project, "greet.go"))
	if want := strings.Replace(greetGo, `"Hello"`, `"Hello, world!"`, 1); string(got) != want {
		t.Fatalf("greet.go:\n%s", got)
	}
	// The read result carried the anchor the model used.
	msgs := r.RequestMessages(1)
	if !strings.Contains(agentrig.MustMarshal(t, msgs), good+"|") {
		t.Errorf("the read result in the second request lacks anchor %s", good)
	}
	// The stale edit was rejected and said so.
	third := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(third, "stale") || !strings.Contains(third, `"is_error":true`) {
		t.Errorf("the stale edit was not rejected:\n%s", third)
	}
	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	store, err := session.Open(files[0], session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var roles []string
	for _, e := range store.Entries() {
		if e.Message != nil {
			roles = append(roles, string(e.Message.MessageRole()))
		}
	}
	want := "user assistant toolResult assistant toolResult assistant toolResult assistant"
	if strings.Join(roles, " ") != want {
		t.Fatalf("session messages %v", roles)
	}
	// A tree: every entry's parent is the one before it, the first is a root.
	prev := ""
	for _, e := range store.Entries() {
		if e.ParentID != prev {
			t.Fatalf("entry %s has parent %q, want %q", e.ID, e.ParentID, prev)
		}
		prev = e.ID
	}
}

// --mode json prints the session header and every event as a JSON line;
// the golden file pins the objects.
func TestJSONModeGolden(t *testing.T) {
	t.Parallel()
	goldenPath, err := filepath.Abs(filepath.Join("testdata", "json-mode.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "note.txt"})}, Usage: &mockllm.Usage{Input: 10, Output: 5}, ChunkSize: 1000},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("It says hi.")}, Usage: &mockllm.Usage{Input: 20, Output: 3}, ChunkSize: 1000},
	)
	r.Write("note.txt", "hi\n")
	out, stderr, code := runPrint(t, r, printmode.JSON, false, "what does note.txt say?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := agentrig.NormalizeEvents(strings.ReplaceAll(out, r.Project, "$WORK"))
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("not a JSON line: %s", line)
		}
		types = append(types, v.Type)
	}
	if types[0] != "session" || types[1] != "agent_start" || types[len(types)-1] != "agent_end" {
		t.Fatalf("types %v", types)
	}
	golden.Check(t, goldenPath, got)
}
