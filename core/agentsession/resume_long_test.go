package agentsession

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/sessiongen"
)

var promptTime = regexp.MustCompile(`"timestamp":[0-9]+}]$`)

// TestResumeLongSessionReadsOnlyItsContext resumes a long generated
// session (compactions, branches, todo plans) and prompts once: the
// request is the one a session whose every message was decoded first
// sends, and neither building the session nor the turn decoded the
// messages the context does not send. A message the compactions left
// behind is made undecodable to tell: decoding it would report it.
func TestResumeLongSessionReadsOnlyItsContext(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	st, err := sessiongen.Write(sessiongen.Options{Dir: filepath.Join(t.TempDir(), "gen"), Cwd: f.project,
		Entries: 2500, Bytes: 2_500_000, Seed: 3, CompactAt: 20_000, KeepRecent: 4_000})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(st.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	// Line 4 is the first prompt (after the header and the model and
	// thinking level changes), long compacted away.
	var e map[string]any
	if err := json.Unmarshal([]byte(lines[3]), &e); err != nil {
		t.Fatal(err)
	}
	if e["message"].(map[string]any)["role"] != "user" {
		t.Fatalf("line 4 is not the first prompt: %.100s", lines[3])
	}
	e["message"] = map[string]any{"role": "user", "content": 5}
	b, _ := json.Marshal(e)
	lines[3] = string(b)
	data = []byte(strings.Join(lines, "\n") + "\n")

	resume := func(decodeAll bool) (sent string, problems []session.LineProblem) {
		path := filepath.Join(t.TempDir(), filepath.Base(st.Path))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		store, err := session.Open(path, session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if decodeAll {
			store.Entries()
		}
		reg := f.registry(f.config())
		s := f.open(Options{Models: reg, Store: store, NoTitle: true})
		n := len(f.script.requests())
		f.script.add(say("ok"))
		if err := s.Prompt(context.Background(), "go on", PromptOptions{}); err != nil {
			t.Fatal(err)
		}
		reqs := f.script.requests()
		if len(reqs) != n+1 {
			t.Fatalf("%d requests for one prompt", len(reqs)-n)
		}
		req := reqs[n]
		msgs, err := json.Marshal(req.Messages)
		if err != nil {
			t.Fatal(err)
		}
		msgs = promptTime.ReplaceAll(msgs, []byte(`"timestamp":0}]`)) // the new prompt's own time
		var tools []string
		for _, tl := range req.Tools {
			tools = append(tools, tl.Name)
		}
		problems = store.Problems()
		s.Close()
		return req.Model.Provider + "/" + req.Model.ID + " " + string(req.Thinking) + "\n" + req.SystemPrompt + "\n" + strings.Join(tools, ",") + "\n" + string(msgs), problems
	}
	lazy, lazyProblems := resume(false)
	eager, eagerProblems := resume(true)
	if lazy != eager {
		t.Errorf("the request differs from the one sent when every message is decoded first:\n%.2000s\n---\n%.2000s", lazy, eager)
	}
	if len(eagerProblems) != 1 || eagerProblems[0].Line != 4 {
		t.Fatalf("decoding everything reports %v, want line 4", eagerProblems)
	}
	if len(lazyProblems) != 0 {
		t.Errorf("resuming and prompting decoded messages the context does not send: %v", lazyProblems)
	}
	if !strings.Contains(lazy, "compaction") && !strings.Contains(lazy, "summary") {
		t.Errorf("the request does not start from a compaction summary: %.300s", lazy)
	}
}
