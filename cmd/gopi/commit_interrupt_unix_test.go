//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Interrupting gopi commit while a hook runs for the second commit of a
// split (Ctrl+C cancels the command's context; the hook is killed with
// git) leaves the first commit made and the rest staged.
func TestCommitAgentSplitInterrupted(t *testing.T) {
	dir := splitRepo(t)
	fifos := t.TempDir()
	ready, block := filepath.Join(fifos, "ready"), filepath.Join(fifos, "block")
	for _, p := range []string{ready, block} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	write(t, hook, "#!/bin/sh\nif git diff --cached --name-only | grep -q '^parser.go$'; then echo started > "+ready+"; cat "+block+"; fi\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := mockllm.New(t).Script(agentTurns(mockllm.ToolCall("split_commit", splitPlan))...)
	commitAgentEnv(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}, []string{"commit"})
	}()
	if _, err := os.ReadFile(ready); err != nil { // returns once the hook has written
		t.Fatal(err)
	}
	cancel()
	if code := <-done; code == 0 || !strings.Contains(errb.String(), `git commit: interrupted; committed before it: "feat(parser): added the trim helper"; still staged, as before: lines.txt, parser.go`) {
		t.Fatalf("exit %d: %q %q", code, out.String(), errb.String())
	}
	if got := gitOut(t, dir, "log", "-2", "--format=%s"); got != "feat(parser): added the trim helper\ntest: added lines\n" {
		t.Fatalf("log:\n%s", got)
	}
	if got := gitOut(t, dir, "diff", "--cached", "--name-only"); got != "lines.txt\nparser.go\n" {
		t.Fatalf("staged now: %q", got)
	}
}
