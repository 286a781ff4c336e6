package agentsession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/permission"
)

// recordingAsker answers every question with answer and records them.
type recordingAsker struct {
	mu     sync.Mutex
	answer permission.Answer
	asked  []permission.Request
}

func (a *recordingAsker) Ask(_ context.Context, req permission.Request) (permission.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req)
	return a.answer, nil
}

func (a *recordingAsker) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}

// The session's gate asks before the calls its options name and runs
// after every other tool_call hook (a call they block is not asked
// about); "always allow" lasts until the session is replaced.
func TestPermissionGate(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	reg := f.registry(f.config())
	asker := &recordingAsker{answer: permission.AllowAlways}
	blocker := &agent.Hooks{Name: "policy", ToolCall: func(_ context.Context, c *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
		if strings.Contains(c.Args["command"].(string), "forbidden") {
			return &agent.ToolCallDecision{Block: true, Reason: "not here"}, nil
		}
		return nil, nil
	}}
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, Hooks: []*agent.Hooks{blocker},
		Permissions: permission.Options{Require: []string{"*"}, Asker: asker}})
	ctx := context.Background()
	f.script.add(
		callTool("c1", "bash", `{"command": "echo forbidden >> log.txt"}`),
		callTool("c2", "bash", `{"command": "echo one >> log.txt"}`),
		callTool("c3", "bash", `{"command": "echo two >> log.txt"}`),
		callTool("c4", "read", `{"path": "log.txt"}`),
		say("done"),
	)
	if err := s.Prompt(ctx, "log", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := asker.count(); n != 1 || asker.asked[0].CallID != "c2" || asker.asked[0].Agent != "" {
		t.Fatalf("asked %+v: want only c2 (c1 is blocked by the hook before, c3 is allowed always, c4 reads)", asker.asked)
	}
	if b, _ := os.ReadFile(filepath.Join(f.project, "log.txt")); string(b) != "one\ntwo\n" {
		t.Fatalf("log.txt %q", b)
	}
	if _, err := s.Tree().New(ctx, ""); err != nil {
		t.Fatal(err)
	}
	f.script.add(callTool("c5", "bash", `{"command": "echo three >> log.txt"}`), say("done"))
	if err := s.Prompt(ctx, "log again", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := asker.count(); n != 2 {
		t.Fatalf("%d questions: the new session should ask again", n)
	}
}

// A malformed pattern stops the session from opening, naming the setting.
func TestPermissionGateBadPattern(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	reg := f.registry(f.config())
	_, err := f.tryOpen(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true,
		Permissions: permission.Options{Require: []string{"bash["}, Setting: "tui.requirePermission"}})
	if err == nil || !strings.Contains(err.Error(), `setting tui.requirePermission: entry 1 ("bash[") is not a valid pattern`) {
		t.Fatalf("%v", err)
	}
}

// A tool an eval JavaScript cell calls (tool.bash) passes the same gate
// as the model's calls: a policy naming bash asks, and a refusal keeps
// the command from running (the cell fails with the reason).
func TestPermissionGateCoversEvalBridge(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	reg := f.registry(f.config())
	asker := &recordingAsker{answer: permission.RejectOnce}
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true,
		Permissions: permission.Options{Require: []string{"bash"}, Asker: asker}})
	f.script.add(
		callTool("c1", "eval", `{"input": "*** Cell js:\"shell\"\nawait tool.bash({command: 'echo ran > out.txt'})"}`),
		say("done"),
	)
	if err := s.Prompt(context.Background(), "run it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := asker.count(); n != 1 || asker.asked[0].Tool != "bash" {
		t.Fatalf("asked %+v: want one question about bash", asker.asked)
	}
	if _, err := os.Stat(filepath.Join(f.project, "out.txt")); err == nil {
		t.Fatal("the refused bash command ran")
	}
}

// An eval JavaScript cell's write() helper asks the gate as the write
// tool does; a refusal keeps the file from being written.
func TestPermissionGateCoversEvalWriteHelper(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	reg := f.registry(f.config())
	asker := &recordingAsker{answer: permission.RejectOnce}
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true,
		Permissions: permission.Options{Require: []string{"write"}, Asker: asker}})
	f.script.add(
		callTool("c1", "eval", `{"input": "*** Cell js:\"save\"\nawait write('out.txt', 'data')"}`),
		say("done"),
	)
	if err := s.Prompt(context.Background(), "save it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := asker.count(); n != 1 || asker.asked[0].Tool != "write" {
		t.Fatalf("asked %+v: want one question about write", asker.asked)
	}
	if _, err := os.Stat(filepath.Join(f.project, "out.txt")); err == nil {
		t.Fatal("the refused write() ran")
	}
}
