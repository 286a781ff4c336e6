package agentsession

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/prompt"
)

// newTestSession builds an in-memory session in cwd with an isolated home
// and a model whose stream is never called.
func newTestSession(t *testing.T, cwd string, probe *prompt.StatusProbe) *Session {
	t.Helper()
	home := t.TempDir()
	cfg, err := config.Load(config.LoadOptions{Cwd: cwd, Home: home, NoFiles: true,
		Environ: []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), Options{
		Config:    cfg,
		NoSession: true,
		Model:     &ai.Model{ID: "m", Provider: "mock", API: "anthropic-messages", ContextWindow: 1000, MaxTokens: 100},
		GitStatus: probe,
		Stream: func(context.Context, *ai.Request) *ai.Stream {
			t.Error("no request expected")
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSystemPromptGitStatus: the system prompt reports the changed paths
// counted by the git status New starts, or by the one the caller started
// earlier (Options.GitStatus), which is used as it is.
func TestSystemPromptGitStatus(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt")

	s := newTestSession(t, repo, nil)
	if got := s.Agent().SystemPrompt(); !strings.Contains(got, ", 1 path with uncommitted changes at start") {
		t.Errorf("started by New: git line missing or wrong in\n%s", got)
	}

	probe := prompt.StartGitStatus(context.Background(), repo, GitStatusTimeout)
	if n, err := probe.Wait(); n != 1 || err != nil {
		t.Fatalf("probe: %d, %v", n, err)
	}
	write("b.txt") // after the probe: the prompt still says 1
	s = newTestSession(t, repo, probe)
	if got := s.Agent().SystemPrompt(); !strings.Contains(got, ", 1 path with uncommitted changes at start") {
		t.Errorf("started by the caller: git line missing or wrong in\n%s", got)
	}
	s = newTestSession(t, repo, nil)
	if got := s.Agent().SystemPrompt(); !strings.Contains(got, ", 2 paths with uncommitted changes at start") {
		t.Errorf("started by New after b.txt: git line missing or wrong in\n%s", got)
	}
}
