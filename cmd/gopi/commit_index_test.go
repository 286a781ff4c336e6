package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// unstagedRepo is gitRepo with a changed tracked file and an untracked
// one, nothing staged; it returns the repository and its index's bytes.
func unstagedRepo(t *testing.T) (dir string, index []byte) {
	t.Helper()
	dir = gitRepo(t)
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse() {}\n")
	write(t, filepath.Join(dir, "notes.txt"), "scratch\n")
	index, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, index
}

// indexUnchanged fails the test when the index differs from before or
// anything is staged.
func indexUnchanged(t *testing.T, dir string, before []byte, when string) {
	t.Helper()
	if staged := gitOut(t, dir, "diff", "--cached", "--name-only"); staged != "" {
		t.Fatalf("%s left staged: %q", when, staged)
	}
	if st := gitOut(t, dir, "status", "--porcelain"); st != " M parser.go\n?? notes.txt\n" {
		t.Fatalf("%s: status %q", when, st)
	}
	after, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil || !bytes.Equal(after, before) {
		t.Fatalf("%s: the index file changed (%v)", when, err)
	}
}

// With nothing staged, gopi commit stages everything (untracked files
// too) to look at it; a dry run, and a run that fails before committing,
// put the index back exactly as it was.
func TestCommitDryRunAndFailureLeaveIndex(t *testing.T) {
	dir, before := unstagedRepo(t)
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(`{"type":"feat","summary":"added Parse"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Nothing to say.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Still nothing.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("No.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("No.")}})
	commitAgentEnv(t, srv)

	out, errOut, code := runCmd(t, "commit", "--legacy", "--dry-run", "--no-changelog")
	if code != 0 || !strings.Contains(out, "Generated commit message:\nfeat: added Parse") {
		t.Fatalf("legacy dry run: exit %d: %q %q", code, out, errOut)
	}
	indexUnchanged(t, dir, before, "commit --legacy --dry-run")

	t.Setenv("PI_COMMIT_NO_FALLBACK", "true")
	out, errOut, code = runCmd(t, "commit")
	if code == 0 || !strings.Contains(out, "No staged changes detected, staging all changes...") {
		t.Fatalf("failing run: exit %d: %q %q", code, out, errOut)
	}
	indexUnchanged(t, dir, before, "a failed gopi commit")

	t.Setenv("PI_COMMIT_NO_FALLBACK", "")
	t.Setenv("PI_COMMIT_TEST_FALLBACK", "true")
	out, errOut, code = runCmd(t, "commit", "--dry-run")
	if code != 0 || !strings.Contains(out, "Generated commit message:") {
		t.Fatalf("dry run: exit %d: %q %q", code, out, errOut)
	}
	indexUnchanged(t, dir, before, "commit --dry-run")

	out, errOut, code = runCmd(t, "commit")
	if code != 0 || gitOut(t, dir, "status", "--porcelain") != "" {
		t.Fatalf("real run: exit %d: %q %q; status %q", code, out, errOut, gitOut(t, dir, "status", "--porcelain"))
	}
}
