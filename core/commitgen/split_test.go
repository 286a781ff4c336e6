package commitgen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// newRepo makes an empty repository.
func newRepo(t *testing.T) (*Repo, context.Context) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (scripts/setup.sh installs it)")
	}
	env := append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	repo := &Repo{Dir: t.TempDir(), Env: env}
	ctx := context.Background()
	if _, err := repo.git(ctx, gitTimeout, "", "init", "-q", "-b", "main"); err != nil {
		t.Fatal(err)
	}
	return repo, ctx
}

// A split in a repository without a commit yet starts from an empty
// tree, and leaves the index equal to the last commit.
func TestApplySplitFirstCommits(t *testing.T) {
	repo, ctx := newRepo(t)
	dir := repo.Dir
	for name, text := range map[string]string{"a.go": "package a\n", "b.md": "# B\n", "img.bin": "\x00\x01\x02"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := repo.StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	diff, err := repo.Diff(ctx, true, nil, "--binary")
	if err != nil {
		t.Fatal(err)
	}
	plan := SplitPlan{Commits: []Group{
		{Message: Message{Type: "docs", Summary: "documented b"}, Changes: []FileChange{{Path: "b.md", Hunks: HunkSelector{Type: HunksAll}}}, Dependencies: []int{1}},
		{Message: Message{Type: "feat", Summary: "added a"}, Changes: []FileChange{{Path: "a.go"}, {Path: "img.bin", Hunks: HunkSelector{Type: HunksAll}}}},
	}}
	order, err := Order(plan.Commits)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	res, err := repo.ApplySplit(ctx, plan, order, diff, func(s string) { seen = append(seen, s) })
	if err != nil || strings.Join(res.Made, "|") != "feat: added a|docs: documented b" || strings.Join(seen, "|") != strings.Join(res.Made, "|") {
		t.Fatalf("%v %v %v", res.Made, seen, err)
	}
	if out, _ := repo.git(ctx, gitTimeout, "", "show", "--format=", "--name-only", "HEAD~1"); out != "a.go\nimg.bin\n" {
		t.Fatalf("first commit: %q", out)
	}
	if out, _ := repo.git(ctx, gitTimeout, "", "status", "--porcelain"); out != "" {
		t.Fatalf("left: %q", out)
	}
}

// A pre-commit hook that rewrites a file and stages the result (a
// formatter) leaves the index in step with the commit.
func TestApplySplitFormattingHook(t *testing.T) {
	repo, ctx := newRepo(t)
	dir := repo.Dir
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nif git diff --cached --name-only | grep -q '^a.go$'; then echo '// formatted' >> a.go; git add a.go; fi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.go": "package a\n", "b.md": "# B\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := repo.StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	diff, _ := repo.Diff(ctx, true, nil, "--binary")
	plan := SplitPlan{Commits: []Group{
		{Message: Message{Type: "feat", Summary: "added a"}, Changes: []FileChange{{Path: "a.go"}}},
		{Message: Message{Type: "docs", Summary: "documented b"}, Changes: []FileChange{{Path: "b.md"}}},
	}}
	if _, err := repo.ApplySplit(ctx, plan, []int{0, 1}, diff, nil); err != nil {
		t.Fatal(err)
	}
	if out, _ := repo.git(ctx, gitTimeout, "", "show", "HEAD~1:a.go"); out != "package a\n// formatted\n" {
		t.Fatalf("the hook's version was not committed: %q", out)
	}
	if out, _ := repo.git(ctx, gitTimeout, "", "status", "--porcelain"); out != "" {
		t.Fatalf("left: %q", out)
	}
}

// A user's diff.noprefix and a non-ASCII file name change nothing: the
// names git lists are the ones the diff headers carry.
func TestSplitWithUserDiffConfig(t *testing.T) {
	repo, ctx := newRepo(t)
	if _, err := repo.git(ctx, gitTimeout, "", "config", "diff.noprefix", "true"); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"é.txt": "é\n", "b.txt": "b\n"} {
		if err := os.WriteFile(filepath.Join(repo.Dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := repo.StageAll(ctx); err != nil {
		t.Fatal(err)
	}
	staged, err := repo.ChangedFiles(ctx, true)
	if err != nil || strings.Join(staged, "|") != "b.txt|é.txt" {
		t.Fatalf("staged %q %v", staged, err)
	}
	diff, _ := repo.Diff(ctx, true, nil, "--binary")
	plan := SplitPlan{Commits: []Group{
		{Message: Message{Type: "feat", Summary: "added é"}, Changes: []FileChange{{Path: "é.txt"}}},
		{Message: Message{Type: "feat", Summary: "added b"}, Changes: []FileChange{{Path: "b.txt"}}},
	}}
	if err := CheckCoverage(plan, staged); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.ApplySplit(ctx, plan, []int{0, 1}, diff, nil); err != nil {
		t.Fatal(err)
	}
	if out, _ := repo.git(ctx, gitTimeout, "", "show", "--format=", "--name-only", "HEAD~1"); out != "é.txt\n" {
		t.Fatalf("first commit: %q", out)
	}
}
